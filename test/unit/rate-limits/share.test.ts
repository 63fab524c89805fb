import { describe, expect, it } from "vitest";
import { defaultLimits } from "../../../src/domain/rate-limits/budgets";
import { createRateLimiter, shareOf } from "../../../src/domain/rate-limits/limiter";

// Product 22: each instance admits its share of a budget, the budget divided by the live
// instances; the shares add up to the budget, so together they never admit more.

describe("product 22: an instance's share of a budget", () => {
  it.each([
    // limit, count, the shares of instances 0..count-1
    [240, 1, [240]],
    [240, 2, [120, 120]],
    [10, 3, [4, 3, 3]],
    [5, 4, [2, 1, 1, 1]],
    [2, 3, [1, 1, 0]],
    [1, 2, [1, 0]],
  ])("a budget of %i over %i instances is shared %j", (limit, count, shares) => {
    const got = Array.from({ length: count }, (_, index) => shareOf(limit, index, count));
    expect(got).toEqual(shares);
    expect(got.reduce((a, b) => a + b, 0)).toBe(limit);
  });

  it("limiters of three instances together admit exactly the budget in a window", () => {
    const limits = { ...defaultLimits(), "gate.ip": 10 };
    const limiters = [0, 1, 2].map((index) => {
      const l = createRateLimiter({ limits });
      l.setShare(index, 3);
      return l;
    });
    let admitted = 0;
    for (let i = 0; i < 100; i++) if (limiters[i % 3]!.tryAcquire([{ budget: "gate.ip", key: "1.2.3.4" }], 1_000)) admitted += 1;
    expect(admitted).toBe(10);
  });
});
