import { describe, expect, it } from "vitest";
import { BUDGET_NAMES, BUDGETS, type BudgetName, defaultLimits } from "../../../src/domain/rate-limits/budgets";
import { createRateLimiter, type RateCheck } from "../../../src/domain/rate-limits/limiter";

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const MINUTE_MS = 60_000;

const limiterWith = (overrides: Partial<Record<BudgetName, number>> = {}) =>
  createRateLimiter({ limits: { ...defaultLimits(), ...overrides } });

/** Sends `count` requests at `atMs` and returns how many were admitted. */
const admitted = (limiter: ReturnType<typeof createRateLimiter>, checks: RateCheck[], count: number, atMs: number): number => {
  let passed = 0;
  for (let i = 0; i < count; i += 1) if (limiter.tryAcquire(checks, atMs)) passed += 1;
  return passed;
};

describe("product 12 / interface 8: every budget admits N per window, then refuses", () => {
  it.each(BUDGET_NAMES.map((name) => [name, BUDGETS[name].limit, BUDGETS[name].windowMs] as const))(
    "%s: %i pass, the next is refused, all pass again one window later",
    (budget, limit, windowMs) => {
      const limiter = limiterWith();
      const check = [{ budget, key: "k" }];
      expect(admitted(limiter, check, limit, T0)).toBe(limit);
      expect(limiter.tryAcquire(check, T0)).toBe(false);
      expect(limiter.tryAcquire(check, T0 + windowMs - 1)).toBe(false);
      expect(admitted(limiter, check, limit, T0 + windowMs)).toBe(limit);
      expect(limiter.tryAcquire(check, T0 + windowMs)).toBe(false);
    },
  );
});

describe("product 12: a refused request consumes no budget", () => {
  it("refusals while exhausted do not push the window's end further out", () => {
    const limiter = limiterWith({ "payments.create.key": 2 });
    const check: RateCheck[] = [{ budget: "payments.create.key", key: "k" }];
    expect(admitted(limiter, check, 2, T0)).toBe(2);
    // A refused request at every second of the window; none of them may count.
    for (let s = 1; s < 60; s += 1) expect(limiter.tryAcquire(check, T0 + s * 1000)).toBe(false);
    expect(admitted(limiter, check, 3, T0 + MINUTE_MS)).toBe(2);
  });

  it("a request refused by one budget takes nothing from the others (all-or-nothing)", () => {
    const limiter = limiterWith({ "gate.ip": 10, "payments.create.ip": 2 });
    const checks: RateCheck[] = [
      { budget: "gate.ip", key: "1.2.3.4" },
      { budget: "payments.create.ip", key: "1.2.3.4" },
    ];
    expect(admitted(limiter, checks, 5, T0)).toBe(2);
    // Three refusals consumed no gate.ip: 10 - 2 admitted leaves exactly 8.
    const gate: RateCheck[] = [{ budget: "gate.ip", key: "1.2.3.4" }];
    expect(admitted(limiter, gate, 9, T0)).toBe(8);
  });

  it("the refusing budget may come first, last or in the middle of the list", () => {
    for (const position of [0, 1, 2]) {
      const limiter = limiterWith({ "links.ip": 1 });
      const others: RateCheck[] = [
        { budget: "gate.ip", key: "ip" },
        { budget: "links.write.key", key: "key" },
      ];
      const checks = [...others];
      checks.splice(position, 0, { budget: "links.ip", key: "ip" });
      expect(limiter.tryAcquire(checks, T0)).toBe(true);
      expect(limiter.tryAcquire(checks, T0)).toBe(false);
      expect(admitted(limiter, [others[0]!], 300, T0)).toBe(239);
      expect(admitted(limiter, [others[1]!], 300, T0)).toBe(29);
    }
  });

  it("a refused first request creates no entry", () => {
    const limiter = limiterWith({ "gate.platform": 1 });
    expect(limiter.tryAcquire([{ budget: "gate.platform", key: "" }], T0)).toBe(true);
    const checks: RateCheck[] = [
      { budget: "gate.ip", key: "new-ip" },
      { budget: "gate.platform", key: "" },
    ];
    expect(limiter.tryAcquire(checks, T0)).toBe(false);
    expect(limiter.size()).toBe(1);
  });

  it("naming one budget twice in a request draws on it twice", () => {
    const limiter = limiterWith({ "reads.key": 3 });
    const twice: RateCheck[] = [
      { budget: "reads.key", key: "k" },
      { budget: "reads.key", key: "k" },
    ];
    expect(limiter.tryAcquire(twice, T0)).toBe(true);
    expect(limiter.tryAcquire(twice, T0)).toBe(false);
    expect(limiter.tryAcquire([twice[0]!], T0)).toBe(true);
    expect(limiter.tryAcquire([twice[0]!], T0)).toBe(false);
  });
});

describe("interface 8: keys are independent, IP budgets are shared", () => {
  it("different API keys have independent key budgets", () => {
    const limiter = limiterWith();
    const key = (k: string): RateCheck[] => [{ budget: "payments.create.key", key: k }];
    expect(admitted(limiter, key("a"), 61, T0)).toBe(60);
    expect(admitted(limiter, key("b"), 61, T0)).toBe(60);
  });

  it("keys of one account share the IP budget of their source IP", () => {
    const limiter = limiterWith();
    const request = (apiKey: string): RateCheck[] => [
      { budget: "payments.create.key", key: apiKey },
      { budget: "payments.create.ip", key: "10.0.0.1" },
    ];
    expect(admitted(limiter, request("a"), 20, T0)).toBe(20);
    expect(admitted(limiter, request("b"), 20, T0)).toBe(10);
    // From another IP key "b" still has 50 of its own 60 left.
    const elsewhere: RateCheck[] = [
      { budget: "payments.create.key", key: "b" },
      { budget: "payments.create.ip", key: "10.0.0.2" },
    ];
    expect(admitted(limiter, elsewhere, 60, T0)).toBe(30);
  });

  it("changing source IP does not reset a key's own budget", () => {
    const limiter = limiterWith();
    let passed = 0;
    for (let i = 0; i < 100; i += 1) {
      const checks: RateCheck[] = [
        { budget: "links.write.key", key: "k" },
        { budget: "links.ip", key: `10.0.0.${i}` },
      ];
      if (limiter.tryAcquire(checks, T0)) passed += 1;
    }
    expect(passed).toBe(30);
  });

  it("the same key in different budgets counts separately (read vs write usage)", () => {
    const limiter = limiterWith();
    expect(admitted(limiter, [{ budget: "links.write.key", key: "k" }], 31, T0)).toBe(30);
    expect(admitted(limiter, [{ budget: "links.read.key", key: "k" }], 121, T0)).toBe(120);
  });
});

describe("product 12: rateLimitMultiplier scales only payments.create.*", () => {
  it.each([
    ["payments.create.key", 2, 120],
    ["payments.create.ip", 3, 90],
    ["payments.create.ip.hourly", 2, 3600],
    ["payments.create.key", 1.5, 90],
    ["payments.create.ip", 0.01, 1],
    ["gate.ip", 5, 240],
    ["links.write.key", 2, 30],
    ["installments.partner", 10, 120],
  ] as const)("%s with multiplier %d admits %i", (budget, multiplier, expected) => {
    const limiter = limiterWith();
    const check: RateCheck[] = [{ budget, key: "k", multiplier }];
    expect(admitted(limiter, check, expected + 5, T0)).toBe(expected);
  });

  it("refuses a multiplier that is not a positive number, consuming nothing", () => {
    const limiter = limiterWith();
    const bad: RateCheck[] = [
      { budget: "gate.ip", key: "k" },
      { budget: "payments.create.key", key: "k", multiplier: 0 },
    ];
    expect(() => limiter.tryAcquire(bad, T0)).toThrow(RangeError);
    expect(() => limiter.tryAcquire([{ ...bad[1]!, multiplier: Number.NaN }], T0)).toThrow(RangeError);
    expect(limiter.size()).toBe(0);
  });
});

describe("product 12: the window rolls; it is not a fixed minute", () => {
  it("a burst at the end of one minute and the start of the next is refused", () => {
    const limiter = limiterWith({ "payments.create.key": 10 });
    const check: RateCheck[] = [{ budget: "payments.create.key", key: "k" }];
    const minuteEnd = T0 + MINUTE_MS - 1000;
    expect(admitted(limiter, check, 10, minuteEnd)).toBe(10);
    // A fixed window would reset at T0 + 60 s; a rolling one keeps counting those 10.
    expect(admitted(limiter, check, 10, T0 + MINUTE_MS + 1000)).toBe(0);
    expect(admitted(limiter, check, 10, minuteEnd + MINUTE_MS)).toBe(10);
  });

  it("slots free one by one as each admission leaves the window", () => {
    const limiter = limiterWith({ "links.write.key": 3 });
    const check: RateCheck[] = [{ budget: "links.write.key", key: "k" }];
    for (const s of [0, 10, 20]) expect(limiter.tryAcquire(check, T0 + s * 1000)).toBe(true);
    expect(limiter.tryAcquire(check, T0 + 30_000)).toBe(false);
    expect(admitted(limiter, check, 2, T0 + 60_000)).toBe(1);
    expect(admitted(limiter, check, 2, T0 + 70_000)).toBe(1);
    expect(admitted(limiter, check, 2, T0 + 80_000)).toBe(1);
  });

  it("never refuses while fewer than N were admitted in the window", () => {
    const limiter = limiterWith({ "reads.key": 5 });
    const check: RateCheck[] = [{ budget: "reads.key", key: "k" }];
    const log: number[] = [];
    // One request every 7 s for 10 minutes: the decision must match a brute-force count.
    for (let atMs = T0; atMs < T0 + 10 * MINUTE_MS; atMs += 7_000) {
      for (let burst = 0; burst < 3; burst += 1) {
        const inWindow = log.filter((t) => atMs - t < MINUTE_MS).length;
        const ok = limiter.tryAcquire(check, atMs);
        expect(ok).toBe(inWindow < 5);
        if (ok) log.push(atMs);
      }
    }
  });

  it("an admission exactly windowMs ago no longer counts; 1 ms earlier it still does", () => {
    const limiter = limiterWith({ "installments.partner": 1 });
    const check: RateCheck[] = [{ budget: "installments.partner", key: "p" }];
    expect(limiter.tryAcquire(check, T0)).toBe(true);
    expect(limiter.tryAcquire(check, T0 + MINUTE_MS - 1)).toBe(false);
    expect(limiter.tryAcquire(check, T0 + MINUTE_MS)).toBe(true);
  });

  it("a clock step backwards frees nothing", () => {
    const limiter = limiterWith({ "gate.ip": 1 });
    const check: RateCheck[] = [{ budget: "gate.ip", key: "ip" }];
    expect(limiter.tryAcquire(check, T0 + MINUTE_MS)).toBe(true);
    expect(limiter.tryAcquire(check, T0)).toBe(false);
    expect(limiter.tryAcquire(check, T0 + MINUTE_MS + 1)).toBe(false);
    expect(limiter.tryAcquire(check, T0 + 2 * MINUTE_MS)).toBe(true);
  });
});

describe("product 23: a budget that is off (pages.ip in sandbox) admits everything and keeps nothing", () => {
  it("the off budget never refuses; the other budgets of the same check still do", () => {
    const limiter = createRateLimiter({ limits: { ...defaultLimits(), "pages.ip": "off", "gate.ip": 2 } });
    expect(admitted(limiter, [{ budget: "pages.ip", key: "k" }], 10_000, T0)).toBe(10_000);
    expect(limiter.size()).toBe(0);
    expect(
      admitted(
        limiter,
        [
          { budget: "pages.ip", key: "k" },
          { budget: "gate.ip", key: "k" },
        ],
        3,
        T0,
      ),
    ).toBe(2);
  });
});
