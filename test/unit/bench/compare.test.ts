import { describe, expect, it } from "vitest";
import { compare, worse } from "../../bench/compare";

// Issue 18: `npm run bench` says whether any figure is more than 10% below the previous commit's
// binary measured in the same run. The rule, row by row, and the verdict line it prints.

const INFO = { ref: "HEAD~1", sha: "a3076e13e27cdae4113d20f055bba9c6b809fb60", short: "a3076e1" };
const ROWS = [
  { id: "get-link", label: "get link", kind: "rps" as const },
  { id: "startup", label: "start-up with pending timers (s)", kind: "seconds" as const },
];

describe("issue 18 bench: more than 10% worse than the base", () => {
  it.each([
    ["a rate at 0.90x the base", "rps", 900, 1000, false],
    ["a rate just below 0.90x", "rps", 899, 1000, true],
    ["a faster rate", "rps", 1500, 1000, false],
    ["a time at base / 0.9", "seconds", 2 / 0.9, 2, false],
    ["a time above base / 0.9", "seconds", 2.23, 2, true],
    ["memory above base / 0.9", "mib", 334, 300, true],
    ["less memory", "mib", 250, 300, false],
  ] as const)("%s: worse = %s", (_n, unit, current, base, expected) => {
    expect(worse(unit, current, base)).toBe(expected);
  });

  it("prints PASS when no figure is worse, and names each figure that is", () => {
    const ok = compare(
      ROWS,
      { "get-link": { rps: 950 }, startup: { seconds: 2, mib: 280 } },
      { "get-link": { rps: 1000 }, startup: { seconds: 2, mib: 300 } },
      INFO,
    );
    expect(ok.verdict).toBe("vs base (HEAD~1 = a3076e1): no figure more than 10% worse than the base: PASS");
    const bad = compare(
      ROWS,
      { "get-link": { rps: 850 }, startup: { seconds: 2.5, mib: 280 } },
      { "get-link": { rps: 1000 }, startup: { seconds: 2, mib: 300 } },
      INFO,
    );
    expect(bad.misses).toEqual(["get link 0.85x (needs ≥ 0.90x)", "start-up with pending timers (s) 1.25x (needs ≤ 1.11x)"]);
    expect(bad.verdict).toMatch(/^vs base \(HEAD~1 = a3076e1\): 2 figure\(s\) more than 10% worse than the base: MISS: /);
  });

  it("a base that could not run a scenario is not compared, and the line says why instead of PASS", () => {
    const r = compare(
      ROWS.slice(0, 1),
      { "get-link": { rps: 950 } },
      { "get-link": { error: "database schema version 6 is newer" } },
      INFO,
    );
    expect(r.verdict).toBe(
      "vs base (HEAD~1 = a3076e1): no figure could be compared: NOT COMPARED; not compared: get link (database schema version 6 is newer)",
    );
  });
});
