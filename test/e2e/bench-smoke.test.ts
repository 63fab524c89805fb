import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Issue 14: the benchmark suite of issue 11 was never committed while the README described it.
// `npm test` runs its smoke pass (small seeds, 1 s per scenario) against the freshly built binary,
// so it can never silently go missing or rot again. Figures from a smoke pass mean nothing.

describe("issue 14 npm run bench exists and runs (smoke pass)", () => {
  it("every scenario and ceiling produces a figure and bench/results.json", () => {
    const r = spawnSync("node_modules/.bin/bun", ["test/bench/run.ts", "--smoke"], { encoding: "utf8", timeout: 240_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const results = JSON.parse(readFileSync("bench/results.json", "utf8")) as {
      smoke: boolean;
      results: Record<string, { rps?: number; seconds?: number }>;
    };
    expect(results.smoke).toBe(true);
    const ids = Object.keys(results.results);
    expect(ids).toEqual(
      expect.arrayContaining([
        "ceiling-http",
        "ceiling-naive",
        "create-payment",
        "create-payment-1m",
        "get-link",
        "list-links",
        "floor-get-link",
        "floor-list-links",
        "floor-create-payment",
        "pg-floor-create-payment",
        "full-flows",
        "webhooks",
        "startup",
      ]),
    );
    for (const id of ids) expect(results.results[id]!.rps ?? results.results[id]!.seconds, id).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^\| create payment on a month of payments \|/m);
  }, 300_000);
});
