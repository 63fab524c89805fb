import type { CommandDef } from "citty";
import { describe, expect, it } from "vitest";
import { HELP_WIDTH, renderGroupHelp } from "../../cli/help";
import { root } from "../../cli/root";

// issue 10: `--help` on every command shows an example. citty prints `meta.description` in the
// help, so every leaf command's description must carry one.

type Leaf = { path: string; description: string };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function leaves(cmd: CommandDef<any>, path: string): Promise<Leaf[]> {
  const resolve = async <T>(x: T | (() => T | Promise<T>) | Promise<T>): Promise<T> =>
    typeof x === "function" ? await (x as () => T)() : await x;
  const subs = cmd.subCommands ? await resolve(cmd.subCommands) : undefined;
  if (!subs || Object.keys(subs).length === 0) {
    const meta = await resolve(cmd.meta);
    return [{ path, description: meta?.description ?? "" }];
  }
  const nested = await Promise.all(Object.entries(subs).map(async ([name, sub]) => leaves(await resolve(sub as never), `${path} ${name}`)));
  return nested.flat();
}

describe("issue 10: every command's --help shows an example", () => {
  it("walks the whole tree from root", async () => {
    const all = await leaves(root, "kasa");
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((l) => !l.description.includes("Example: kasa")).map((l) => l.path)).toEqual([]);
  });

  it("every example starts with the command's own path", async () => {
    const all = await leaves(root, "kasa");
    const wrong = all.filter((l) => l.description.includes("Example: kasa") && !l.description.includes(`Example: ${l.path}`));
    expect(wrong.map((l) => l.path)).toEqual([]);
  });
});

describe("issue 14: the help of kasa and of every command group is a clean table within 100 columns", () => {
  it.each([[[] as string[]], [["payments"]], [["webhooks"]], [["keys"]]])("kasa %j --help", async (path) => {
    let cmd = root as CommandDef<any>;
    for (const name of path) cmd = (await (cmd.subCommands as Record<string, CommandDef<any>>)[name]) as CommandDef<any>;
    const text = await renderGroupHelp(cmd, ["kasa", ...path].join(" "));
    const lines = text.split("\n");
    expect(lines.filter((l) => l.length > HELP_WIDTH)).toEqual([]);
    expect(lines.filter((l) => /\s{6,}$/.test(l) || / {20,}\S/.test(l))).toEqual([]);
    expect(text).toMatch(/^Commands:$/m);
    expect(text).toMatch(/^Examples:\n {2}kasa /m);
  });

  it("the top level lists every command once, on one line each, with one example per command", async () => {
    const text = await renderGroupHelp(root, "kasa");
    const commands = Object.keys(root.subCommands as object);
    for (const name of commands) expect(text).toMatch(new RegExp(`^ {2}${name} +\\S`, "m"));
    expect(text.split("Examples:")[1]!.match(/^ {2}kasa /gm)?.length).toBe(commands.length);
  });
});
