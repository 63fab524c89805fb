import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// DESIGN.md house style 12: the rules a reviewer would otherwise have to remember.

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const read = (path: string) => ({ path, text: readFileSync(path, "utf8") });
const src = files("src").map(read);
const offendersIn = (tree: { path: string; text: string }[], re: RegExp, allowed: (path: string) => boolean) =>
  tree.filter((f) => !allowed(f.path) && re.test(f.text)).map((f) => f.path);
const offenders = (re: RegExp, allowed: (path: string) => boolean) => offendersIn(src, re, allowed);

// Issue 18: the store rules hold in the CLI and the tests too. test/bench/ is exempt: its ceilings
// measure the bare driver on purpose, what SQLite itself costs without kasa's store around it. This
// file is exempt because it spells out the very patterns it looks for.
const THIS_FILE = "test/unit/foundation/tidy.test.ts";
const cliAndTests = ["cli", "test"]
  .flatMap(files)
  .filter((p) => !p.startsWith("test/bench/") && p !== THIS_FILE)
  .map(read);
const everywhere = [...src, ...cliAndTests];
/** SQL a program writes: statements, and what only SQL reaches (PRAGMAs, query plans, the schema, DDL). */
const SQL = /\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/;
const SQLITE_ONLY =
  /\bPRAGMA\s+\w|\bpragma_\w+\(|\bEXPLAIN\s+(QUERY\s+PLAN\s+)?(SELECT|INSERT|UPDATE|DELETE|WITH)\b|\b(CREATE|DROP|ALTER)\s+(TABLE|INDEX|TRIGGER|VIEW)\b|\bsqlite_(master|schema)\b/;
/** Statements run on the connection itself instead of through a named operation. */
const ON_CONNECTION = /\.db\.(prepare|exec)\(/;

describe("DESIGN.md house style", () => {
  it("time is read only in src/clock.ts", () => {
    expect(offenders(/Date\.now\(\)|new Date\(\)/, (p) => p === "src/clock.ts")).toEqual([]);
  });
  it("randomness only in src/ids.ts (and the banks' protocol values, and the AES-GCM nonces of secrets at rest)", () => {
    expect(
      offenders(
        /Math\.random|randomBytes|randomInt|randomUUID/,
        (p) => p === "src/ids.ts" || p.startsWith("src/bank/") || p === "src/store/secret-box.ts",
      ),
    ).toEqual([]);
  });
  it("no console.* in src/ (consola through src/log.ts)", () => {
    expect(offenders(/console\.(log|error|warn|info)/, () => false)).toEqual([]);
  });
  it("SQL only in src/store/ (issue 18: cli/ and test/ too; tests use named store operations or test helpers)", () => {
    expect(offendersIn(everywhere, SQL, (p) => p.startsWith("src/store/"))).toEqual([]);
    expect(offendersIn(everywhere, SQLITE_ONLY, (p) => p.startsWith("src/store/"))).toEqual([]);
    expect(offendersIn(cliAndTests, ON_CONNECTION, () => false)).toEqual([]);
  });
  it("issue 18: only tests call the fixtures group (store.ts FixturesOps skips every transition's checks)", () => {
    const service = everywhere.filter((f) => !f.path.startsWith("test/"));
    expect(offendersIn(service, /\.fixtures\.\w+\(/, () => false)).toEqual([]);
  });
  it("no h3, consola or driver imports in the domain", () => {
    expect(offenders(/from "(h3|consola|better-sqlite3|bun:sqlite)"/, (p) => !p.startsWith("src/domain/"))).toEqual([]);
  });
  it("issue 18: a repo call is awaited before it is negated (`!tx.x.get()` is a Promise, always truthy)", () => {
    // Biome's noFloatingPromises / noMisusedPromises (biome.json) catch the other forgotten awaits.
    expect(offenders(/!\s*(tx|[\w.]*\.q)\.\w+\.\w+\(/, () => false)).toEqual([]);
  });
  it("issue 29: no store writes in cli/ (a command parses, calls a domain service, prints)", () => {
    const cli = cliAndTests.filter((f) => f.path.startsWith("cli/"));
    expect(offendersIn(cli, /\bstore\.write\(|\.write\(\s*(async\s*)?\(\s*tx\b/, () => false)).toEqual([]);
  });
  it("only driver files import a driver (in src/, cli/ and test/)", () => {
    expect(
      offendersIn(
        everywhere,
        /from "(better-sqlite3|bun:sqlite)"|require\("better-sqlite3"\)|import\("(better-sqlite3|bun:sqlite)"\)/,
        (p) => /src\/store\/sqlite\/driver-(bun|node)\.ts$/.test(p),
      ),
    ).toEqual([]);
  });
});

/**
 * Issue 14: the project stands alone. A user's clone has nothing beside it, so no file the project
 * runs may name a path outside the repository: a relative path climbing above the root (counted
 * from the file's own folder), or `shared/` beside the project where the developers' spec lives.
 */
describe("issue 14: nothing the project runs reaches outside its own tree", () => {
  const tree = ["src", "cli", "test"].flatMap((dir) =>
    files(dir).concat(
      readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((p) => /\.(json|mjs|js|sh)$/.test(p))
        .map((p) => join(dir, p)),
    ),
  );
  const climbs = (path: string, text: string): string[] => {
    const depth = path.split("/").length - 1;
    return [...text.matchAll(/(?:\.\.\/)+/g)]
      .filter((m) => m[0].length / 3 > depth)
      .map((m) => `${path}: ${text.slice(m.index, m.index + m[0].length + 20).split("\n")[0]}`);
  };
  it.each(tree)("%s names no path above the repository", (path) => {
    const text = readFileSync(path, "utf8");
    expect(climbs(path, text)).toEqual([]);
    expect(text).not.toMatch(/\.\.\/shared\/|\/work\/shared/);
  });
  it("package.json scripts name no path above the repository", () => {
    const scripts = Object.values((JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts);
    expect(scripts.filter((s) => /(^|\s)\.\.\/|\/work\//.test(s))).toEqual([]);
  });
});
