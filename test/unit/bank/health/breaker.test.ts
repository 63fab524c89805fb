import { describe, expect, it } from "vitest";
import { BREAKER_DEFAULTS, createConnectionHealth, type BreakerSettings } from "../../../../src/bank/health/breaker";

// Issue 32 (docs/operating.md, Health): one breaker per connection, on real time. Each row is one rule:
// a script of outcomes at given seconds, then what admits/state say at the end.

type Step = readonly [atSeconds: number, outcome: "success" | "failure"];

function run(steps: readonly Step[], settings: BreakerSettings | null = null, id = "vpos-a") {
  let now = 1_000_000;
  const start = now;
  const health = createConnectionHealth({ nowMs: () => now });
  health.configure(id, settings);
  for (const [at, outcome] of steps) {
    now = start + at * 1000;
    health.record(id, outcome);
  }
  return {
    health,
    at(seconds: number) {
      now = start + seconds * 1000;
      return { state: health.state(id), admits: health.admits(id) };
    },
  };
}

const fails = (n: number, at = 0): Step[] => Array.from({ length: n }, () => [at, "failure"] as const);

describe("product 25 Health: the breaker of one connection", () => {
  it.each([
    ["no outcome yet: closed", [], null, 0, "closed", true],
    ["defaults: 4 failures in the window stay closed", fails(4), null, 1, "closed", true],
    ["defaults: the 5th failure in the window opens it", fails(5), null, 1, "open", false],
    ["failures older than the window drop out (4 at 0 s, 1 at 61 s)", [...fails(4), [61, "failure"]], null, 61, "closed", true],
    [
      "failures spread inside the window count (one every 14 s)",
      [0, 14, 28, 42, 56].map((s) => [s, "failure"] as const),
      null,
      56,
      "open",
      false,
    ],
    ["a decline is a success: it never counts (4 failures, 1 success, closed)", [...fails(4), [1, "success"]], null, 1, "closed", true],
    ["open until the cooldown has passed (29 s after opening)", fails(5, 10), null, 39, "open", false],
    ["half-open once the cooldown has passed: the next attempt may go", fails(5, 10), null, 40, "half-open", true],
    ["a success while half-open closes it", [...fails(5, 10), [41, "success"]], null, 41, "closed", true],
    [
      "a success clears the window: 4 more failures after it stay closed",
      [...fails(5, 10), [41, "success"], ...fails(4, 42)],
      null,
      42,
      "closed",
      true,
    ],
    ["a failure while half-open re-opens it for another cooldown", [...fails(5, 10), [45, "failure"]], null, 74, "open", false],
    ["the re-opened breaker is half-open again after that cooldown", [...fails(5, 10), [45, "failure"]], null, 75, "half-open", true],
    ["a failure while open (cooldown running) changes nothing", [...fails(5, 10), [20, "failure"]], null, 40, "half-open", true],
    ["configured: failures 2 opens on the 2nd", fails(2), { failures: 2, windowSeconds: 10, cooldownSeconds: 5 }, 0, "open", false],
    [
      "configured: the window is windowSeconds",
      [
        [0, "failure"],
        [11, "failure"],
      ],
      { failures: 2, windowSeconds: 10, cooldownSeconds: 5 },
      11,
      "closed",
      true,
    ],
    ["configured: the cooldown is cooldownSeconds", fails(2), { failures: 2, windowSeconds: 10, cooldownSeconds: 5 }, 5, "half-open", true],
  ] as const)("%s", (_name, steps, settings, at, state, admits) => {
    expect(run(steps as readonly Step[], settings).at(at)).toEqual({ state, admits });
  });

  it("defaults are 5 failures in 60 s, 30 s cooldown", () => {
    expect(BREAKER_DEFAULTS).toEqual({ failures: 5, windowSeconds: 60, cooldownSeconds: 30 });
  });

  it("each connection has its own breaker", () => {
    const { health } = run(fails(5), null, "vpos-a");
    expect(health.state("vpos-a")).toBe("open");
    expect(health.state("vpos-b")).toBe("closed");
    expect(health.admits("vpos-b")).toBe(true);
  });

  it("configure(id, null) goes back to the defaults; a change of settings keeps the state", () => {
    let now = 0;
    const health = createConnectionHealth({ nowMs: () => now });
    health.configure("c", { failures: 2, windowSeconds: 60, cooldownSeconds: 30 });
    health.record("c", "failure");
    health.configure("c", null);
    health.record("c", "failure");
    expect(health.state("c")).toBe("closed");
    for (let i = 0; i < 3; i++) health.record("c", "failure");
    expect(health.state("c")).toBe("open");
    now = 30_000;
    expect(health.state("c")).toBe("half-open");
  });

  it("lists the connections it knows with their state", () => {
    const { health } = run(fails(5), null, "vpos-a");
    health.record("vpos-b", "success");
    expect(health.states()).toEqual(
      expect.arrayContaining([
        { connectionId: "vpos-a", state: "open" },
        { connectionId: "vpos-b", state: "closed" },
      ]),
    );
  });
});
