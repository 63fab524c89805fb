import { renderUsage, type CommandDef } from "citty";

// `--help` output (issue 14). citty lists subcommands with their whole description, example line
// included, padded to the widest line: hundreds of spaces per row. A command with subcommands
// gets a table instead: one line per subcommand (the first sentence of its description, wrapped
// to 100 columns) and the examples of its commands below. A leaf command keeps citty's usage.

export const HELP_WIDTH = 100;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCommand = CommandDef<any>;

const resolve = async <T>(x: T | (() => T | Promise<T>) | Promise<T>): Promise<T> =>
  typeof x === "function" ? await (x as () => T | Promise<T>)() : await x;

async function describe(cmd: AnyCommand): Promise<{ summary: string; examples: string[] }> {
  const meta = await resolve(cmd.meta);
  const text = meta?.description ?? "";
  const summary = text.split("\n")[0]!.trim();
  const examples = [...text.matchAll(/^Example: (.+)$/gm)].map((m) => m[1]!.trim());
  return { summary, examples };
}

/** Words of `text` in lines of at most `width` columns. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** The help of a command that has subcommands: `path` is how it is typed (`kasa`, `kasa payments`). */
export async function renderGroupHelp(cmd: AnyCommand, path: string): Promise<string> {
  const subs = Object.entries((await resolve(cmd.subCommands ?? {})) as Record<string, AnyCommand>);
  const own = await describe(cmd);
  const rows = await Promise.all(
    subs.map(async ([name, sub]) => ({ name, sub: await resolve(sub), info: await describe(await resolve(sub)) })),
  );
  const nameWidth = Math.max(...rows.map((r) => r.name.length)) + 2;
  const out = [
    ...wrap(own.summary, HELP_WIDTH),
    "",
    `Usage: ${path} <command> [options]   (${path} <command> --help for its options)`,
    "",
    "Commands:",
  ];
  for (const r of rows) {
    const [first = "", ...rest] = wrap(r.info.summary, HELP_WIDTH - 2 - nameWidth);
    out.push(`  ${r.name.padEnd(nameWidth)}${first}`, ...rest.map((l) => `  ${" ".repeat(nameWidth)}${l}`));
  }
  // One example per command: the first of the commands under it.
  const examples = (await Promise.all(rows.map(async (r) => (await leafExamples(r.sub)).slice(0, 1)))).flat();
  if (examples.length > 0) {
    out.push("", "Examples:");
    for (const e of examples) out.push(...wrap(e, HELP_WIDTH - 4).map((l, i) => (i === 0 ? `  ${l}` : `      ${l}`)));
  }
  return out.join("\n");
}

/** The first example of each leaf under `cmd`. */
async function leafExamples(cmd: AnyCommand): Promise<string[]> {
  const subs = cmd.subCommands ? Object.values((await resolve(cmd.subCommands)) as Record<string, AnyCommand>) : [];
  if (subs.length === 0) return (await describe(cmd)).examples.slice(0, 1);
  return (await Promise.all(subs.map(async (s) => leafExamples(await resolve(s))))).flat();
}

/** citty's `showUsage` hook: our table for groups, citty's usage for leaf commands. */
export async function showHelp(cmd: AnyCommand, parent?: AnyCommand): Promise<void> {
  const hasSubs = cmd.subCommands && Object.keys(await resolve(cmd.subCommands)).length > 0;
  if (!hasSubs) {
    process.stdout.write(`${await renderUsage(cmd, parent)}\n\n`);
    return;
  }
  const names = await Promise.all([parent, cmd].map(async (c) => (c?.meta ? (await resolve(c.meta))?.name : undefined)));
  const path = [...new Set(["kasa", ...names.filter((n): n is string => Boolean(n))])].join(" ");
  process.stdout.write(`${await renderGroupHelp(cmd, path)}\n`);
}
