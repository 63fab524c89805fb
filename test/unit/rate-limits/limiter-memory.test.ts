import { describe, expect, it } from "vitest";
import { type BudgetName, defaultLimits, MAX_BUDGET_LIMIT } from "../../../src/domain/rate-limits/budgets";
import { createRateLimiter, type RateCheck } from "../../../src/domain/rate-limits/limiter";

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

const limiterWith = (overrides: Partial<Record<BudgetName, number>> = {}) =>
  createRateLimiter({ limits: { ...defaultLimits(), ...overrides } });

const gateChecks = (ip: string): RateCheck[] => [
  { budget: "gate.ip", key: ip },
  { budget: "gate.platform", key: "" },
];

describe("product 12: idle entries are evicted, memory stays bounded", () => {
  it("100k distinct IPs, one request each, 10 ms apart: size tracks the IPs of the last minute", () => {
    const limiter = limiterWith({ "gate.platform": MAX_BUDGET_LIMIT });
    const spacingMs = 10;
    const activePerWindow = MINUTE_MS / spacingMs;
    let largest = 0;
    let refused = 0;
    for (let i = 0; i < 100_000; i += 1) {
      if (!limiter.tryAcquire(gateChecks(`ip-${i}`), T0 + i * spacingMs)) refused += 1;
      largest = Math.max(largest, limiter.size());
    }
    expect(refused).toBe(0);
    // Without eviction this would be 100_001; the sweep holds it near one window's worth.
    expect(largest).toBeGreaterThan(activePerWindow);
    expect(largest).toBeLessThanOrEqual(1.5 * activePerWindow);
  });

  it("a burst of 100k IPs within one window is evicted by later traffic once idle", () => {
    const limiter = limiterWith({ "gate.platform": MAX_BUDGET_LIMIT });
    for (let i = 0; i < 100_000; i += 1) limiter.tryAcquire(gateChecks(`ip-${i}`), T0);
    // All of them still constrain inside the window, so none may go.
    expect(limiter.size()).toBe(100_001);
    let calls = 0;
    while (limiter.size() > 2 && calls < 100_000) {
      limiter.tryAcquire([{ budget: "gate.ip", key: "lone" }], T0 + MINUTE_MS + calls);
      calls += 1;
    }
    expect(limiter.size()).toBeLessThanOrEqual(2);
    // The sweep is O(1) a call: it needs about half as many calls as entries it frees.
    expect(calls).toBeGreaterThan(100_000 / 4);
  });

  it("never evicts an entry that still constrains, however much churn sweeps past it", () => {
    const limiter = limiterWith({ "payments.create.ip.hourly": 3 });
    const hot: RateCheck[] = [{ budget: "payments.create.ip.hourly", key: "hot" }];
    for (let i = 0; i < 3; i += 1) expect(limiter.tryAcquire(hot, T0)).toBe(true);
    // Half an hour of one-off minute-budget traffic: many full sweep passes over a small map.
    for (let i = 0; i < 60_000; i += 1) limiter.tryAcquire(gateChecks(`ip-${i}`), T0 + i * 30);
    expect(limiter.size()).toBeLessThan(10_000);
    expect(limiter.tryAcquire(hot, T0 + HOUR_MS - 1)).toBe(false);
    expect(limiter.tryAcquire(hot, T0 + HOUR_MS)).toBe(true);
  });

  it("the platform budget, one entry, keeps an exact count across ring growth", () => {
    const limiter = limiterWith({ "gate.platform": 5000 });
    const platform: RateCheck[] = [{ budget: "gate.platform", key: "" }];
    let passed = 0;
    // 1 request per ms for 2 minutes: at most 5000 in any minute, so 10_000 in total.
    for (let ms = 0; ms < 2 * MINUTE_MS; ms += 1) if (limiter.tryAcquire(platform, T0 + ms)) passed += 1;
    expect(passed).toBe(10_000);
    expect(limiter.size()).toBe(1);
  });
});

describe("product 12: --limits off and limit validation", () => {
  it("off admits everything and holds nothing", () => {
    const limiter = createRateLimiter({ limits: "off" });
    let passed = 0;
    for (let i = 0; i < 10_000; i += 1) if (limiter.tryAcquire(gateChecks("ip"), T0)) passed += 1;
    expect(passed).toBe(10_000);
    expect(limiter.size()).toBe(0);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("refuses a limit of %s", (limit) => {
    expect(() => limiterWith({ "links.ip": limit })).toThrow(/links\.ip/);
  });

  it("copies its limits, so later changes to the caller's object do not leak in", () => {
    const limits = defaultLimits();
    limits["reads.key"] = 1;
    const limiter = createRateLimiter({ limits });
    limits["reads.key"] = 100;
    const check: RateCheck[] = [{ budget: "reads.key", key: "k" }];
    expect(limiter.tryAcquire(check, T0)).toBe(true);
    expect(limiter.tryAcquire(check, T0)).toBe(false);
  });
});
