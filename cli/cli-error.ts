/**
 * A caller's mistake: one clear line on stderr, exit 1 (or 2 for usage errors). Its own file so
 * that every CLI module can throw it without importing the command context (which imports the
 * master-key module, which throws it).
 */
export class CliError extends Error {
  override name = "CliError";
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}
