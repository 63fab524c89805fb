import type { CommandDef } from "citty";
import { describe, expect, it } from "vitest";
import { root } from "../../cli/root";

// issue 10: `--help` on every command shows an example. citty prints `meta.description` in the
// help, so every leaf command's description must carry one.

type Leaf = { path: string; description: string };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function leaves(cmd: CommandDef<any>, path: string): Promise<Leaf[]> {
  const resolve = async <T>(x: T | (() => T | Promise<T>) | Promise<T>): Promise<T> => (typeof x === "function" ? await (x as () => T)() : await x);
  const subs = cmd.subCommands ? await resolve(cmd.subCommands) : undefined;
  if (!subs || Object.keys(subs).length === 0) {
    const meta = cmd.meta ? await resolve(cmd.meta) : undefined;
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
