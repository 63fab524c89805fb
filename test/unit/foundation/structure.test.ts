import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

// Issue 29: the structure rules docs/architecture.md states, checked on every run: the imports of
// src/ and cli/ form no circle (type-only and dynamic imports count: a circle of types still ties
// the files together), comments cite the project's own docs rather than numbered sections of
// documents a clone does not have, and the README stays a front door.

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const code = ["src", "cli"].flatMap(files);
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

/** The project file a relative specifier names (`./x` is `./x.ts` or `./x/index.ts`); null for data files. */
function resolve(from: string, specifier: string): string | null {
  const base = normalize(join(dirname(from), specifier));
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) {
    if (candidate.endsWith(".ts") && existsSync(candidate)) return candidate;
  }
  return null;
}

function importGraph(paths: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const path of paths) {
    const targets = [...readFileSync(path, "utf8").matchAll(IMPORT)].map((m) => resolve(path, m[1] ?? ""));
    graph.set(
      path,
      targets.filter((t): t is string => t !== null),
    );
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one file, or a file importing itself. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const seen = new Map<string, { index: number; low: number }>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    const mark = { index, low: index };
    index += 1;
    seen.set(node, mark);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      const other = seen.get(next);
      if (!other) {
        visit(next);
        mark.low = Math.min(mark.low, seen.get(next)?.low ?? mark.low);
      } else if (onStack.has(next)) mark.low = Math.min(mark.low, other.index);
    }
    if (mark.low !== mark.index) return;
    const component: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      component.push(top);
      if (top === node) break;
    }
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!seen.has(node)) visit(node);
  return found;
}

/** Comment text of a TypeScript file: line comments and block comments, strings left out. */
function comments(text: string): string[] {
  const out: string[] = [];
  const re = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  for (const m of text.matchAll(re)) if (m[0].startsWith("//") || m[0].startsWith("/*")) out.push(m[0]);
  return out;
}

const OUTSIDE_CITATION = /\b(product|interface)(\.md)? \d/i;

describe("issue 29: the structure", () => {
  it("no import circle in src/ or cli/ (type-only and dynamic imports count)", () => {
    expect(circles(importGraph(code))).toEqual([]);
  });

  it("the circle finder finds a circle, a self-import and none in a chain", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["d"]],
      ["e", ["a"]],
    ]);
    expect(circles(graph)).toEqual([["a", "b", "c"], ["d"]]);
    expect(
      circles(
        new Map([
          ["x", ["y"]],
          ["y", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("the import reader sees static, type-only, re-export and dynamic imports", () => {
    const graph = importGraph(["src/store/sqlite/db.ts", "src/store/sqlite/driver-bun.ts"]);
    expect(graph.get("src/store/sqlite/db.ts")).toEqual(
      expect.arrayContaining(["src/store/sqlite/db-types.ts", "src/store/sqlite/driver-bun.ts", "src/store/sqlite/driver-node.ts"]),
    );
  });

  it("no comment in src/ or cli/ cites a numbered section of an outside document", () => {
    const offenders = code.flatMap((path) =>
      comments(readFileSync(path, "utf8"))
        .filter((c) => OUTSIDE_CITATION.test(c))
        .map((c) => `${path}: ${c.match(OUTSIDE_CITATION)?.[0]}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the comment reader skips strings and finds both comment forms", () => {
    expect(comments('const a = "// no"; // yes\n/* block */ const b = `/* no */`;')).toEqual(["// yes", "/* block */"]);
  });

  it("the README is a front door of at most 250 lines", () => {
    expect(readFileSync("README.md", "utf8").split("\n").length).toBeLessThanOrEqual(251);
  });
});
