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

const src = files("src").map((path) => ({ path, text: readFileSync(path, "utf8") }));
const offenders = (re: RegExp, allowed: (path: string) => boolean) => src.filter((f) => !allowed(f.path) && re.test(f.text)).map((f) => f.path);

describe("DESIGN.md house style", () => {
  it("time is read only in src/clock.ts", () => {
    expect(offenders(/Date\.now\(\)|new Date\(\)/, (p) => p === "src/clock.ts")).toEqual([]);
  });
  it("randomness only in src/ids.ts (and the simulated bank's own references)", () => {
    expect(offenders(/Math\.random|randomBytes|randomInt|randomUUID/, (p) => p === "src/ids.ts" || p.startsWith("src/bank/sim/"))).toEqual([]);
  });
  it("no console.* in src/ (consola through src/log.ts)", () => {
    expect(offenders(/console\.(log|error|warn|info)/, () => false)).toEqual([]);
  });
  it("SQL only in src/store/", () => {
    expect(offenders(/\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/, (p) => p.startsWith("src/store/"))).toEqual([]);
  });
  it("no h3, consola or driver imports in the domain", () => {
    expect(offenders(/from "(h3|consola|better-sqlite3|bun:sqlite)"/, (p) => !p.startsWith("src/domain/"))).toEqual([]);
  });
  it("only driver files import a driver", () => {
    expect(offenders(/from "(better-sqlite3|bun:sqlite)"|require\("better-sqlite3"\)/, (p) => /src\/store\/driver-(bun|node)\.ts$/.test(p))).toEqual([]);
  });
});
