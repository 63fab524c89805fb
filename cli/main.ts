import { runCommand, runMain } from "citty";
import { CliError } from "./cli-error";
import { escapeControls } from "./escape";
import { showHelp } from "./help";
import { root } from "./root";

// The only place that calls runMain or process.exit (DESIGN.md).

const rawArgs = process.argv.slice(2);

/** The colour codes citty puts in its messages; errors are printed as plain text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is exactly what is matched
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** citty's own parse/usage failures (unknown command, missing argument). */
const isUsageError = (e: unknown): boolean =>
  e instanceof Error && (e.name === "CLIError" || /^E_/.test(String((e as { code?: unknown }).code ?? "")));

if (rawArgs.length === 0 || rawArgs.includes("--help") || rawArgs.includes("-h") || rawArgs.includes("--version")) {
  // `kasa` alone is a request for the command table, like `kasa --help` (exit 0).
  await runMain(root, { rawArgs: rawArgs.length === 0 ? ["--help"] : rawArgs, showUsage: showHelp });
} else {
  try {
    await runCommand(root, { rawArgs });
  } catch (error) {
    const exitCode = error instanceof CliError ? error.exitCode : isUsageError(error) ? 2 : 1;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `kasa: ${escapeControls(message.split("\n")[0]!.replace(ANSI_COLOUR, ""))}${exitCode === 2 ? " (see kasa --help)" : ""}\n`,
    );
    process.exit(exitCode);
  }
}
