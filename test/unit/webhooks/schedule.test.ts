import { describe, expect, it } from "vitest";
import { MAX_DELIVERY_ATTEMPTS, mayAttemptAt, nextAttemptAtMs, planAfterAttempt } from "../../../src/domain/webhooks/schedule";

const S = 1_000;
const MIN = 60 * S;
const H = 60 * MIN;
const FIRST = Date.UTC(2025, 2, 1, 9, 0, 0);

describe("interface 6.4 and product 11 retry schedule", () => {
  it.each([
    { attempt: 1, after: "30 s", failedAtMs: FIRST + 5 * S, expected: FIRST + 5 * S + 30 * S },
    { attempt: 2, after: "2 min", failedAtMs: FIRST + 40 * S, expected: FIRST + 40 * S + 2 * MIN },
    { attempt: 3, after: "10 min", failedAtMs: FIRST + 3 * MIN, expected: FIRST + 3 * MIN + 10 * MIN },
    { attempt: 4, after: "1 h", failedAtMs: FIRST + 14 * MIN, expected: FIRST + 14 * MIN + 1 * H },
    { attempt: 5, after: "6 h", failedAtMs: FIRST + 2 * H, expected: FIRST + 2 * H + 6 * H },
    { attempt: 6, after: "never (dropped)", failedAtMs: FIRST + 8 * H, expected: null },
    { attempt: 7, after: "never (dropped)", failedAtMs: FIRST + 8 * H, expected: null },
  ])("after failed attempt $attempt the next comes $after later", ({ attempt, failedAtMs, expected }) => {
    expect(nextAttemptAtMs({ attempt, failedAtMs, firstAttemptAtMs: FIRST })).toBe(expected);
  });

  it.each([
    { name: "lands exactly on 24 h: kept", attempt: 5, failedAtMs: FIRST + 18 * H, expected: FIRST + 24 * H },
    { name: "lands 1 ms after 24 h: dropped", attempt: 5, failedAtMs: FIRST + 18 * H + 1, expected: null },
    { name: "late failure of attempt 2: dropped", attempt: 2, failedAtMs: FIRST + 24 * H - 1 * MIN, expected: null },
    { name: "attempt 1 failing within the window: kept", attempt: 1, failedAtMs: FIRST + 5 * S, expected: FIRST + 35 * S },
  ])("24 h window: $name", ({ attempt, failedAtMs, expected }) => {
    expect(nextAttemptAtMs({ attempt, failedAtMs, firstAttemptAtMs: FIRST })).toBe(expected);
  });

  it("a receiver that always times out gets 6 attempts, the last 7 h 12.5 min plus 25 s of timeouts after the first", () => {
    const sentAt = [FIRST];
    for (let attempt = 1; ; attempt++) {
      const failedAtMs = (sentAt.at(-1) as number) + 5 * S;
      const next = nextAttemptAtMs({ attempt, failedAtMs, firstAttemptAtMs: FIRST });
      if (next === null) break;
      sentAt.push(next);
    }
    expect(sentAt).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect((sentAt.at(-1) as number) - FIRST).toBe(7 * H + 12 * MIN + 30 * S + 25 * S);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses attempt number %s (our bug, not a schedule)", (attempt) => {
    expect(() => nextAttemptAtMs({ attempt, failedAtMs: FIRST, firstAttemptAtMs: FIRST })).toThrow(RangeError);
  });

  it.each([
    { outcome: "delivered", attempt: 1, failedAtMs: FIRST, plan: { state: "delivered" } },
    { outcome: "permanent", attempt: 1, failedAtMs: FIRST, plan: { state: "failed", reason: "permanent" } },
    { outcome: "retry", attempt: 1, failedAtMs: FIRST, plan: { state: "pending", nextAttemptAtMs: FIRST + 30 * S } },
    { outcome: "retry", attempt: 6, failedAtMs: FIRST + 8 * H, plan: { state: "failed", reason: "exhausted" } },
    { outcome: "retry", attempt: 5, failedAtMs: FIRST + 20 * H, plan: { state: "failed", reason: "exhausted" } },
  ] as const)("plan after a $outcome attempt $attempt", ({ outcome, attempt, failedAtMs, plan }) => {
    expect(planAfterAttempt({ outcome, attempt, failedAtMs, firstAttemptAtMs: FIRST })).toEqual(plan);
  });

  it.each([
    { name: "a first attempt, however late", nowMs: FIRST + 100 * H, firstAttemptAtMs: null, expected: true },
    { name: "a retry picked up at exactly 24 h", nowMs: FIRST + 24 * H, firstAttemptAtMs: FIRST, expected: true },
    { name: "a retry picked up after 24 h", nowMs: FIRST + 24 * H + 1, firstAttemptAtMs: FIRST, expected: false },
  ])("$name may be sent: $expected", ({ nowMs, firstAttemptAtMs, expected }) => {
    expect(mayAttemptAt(nowMs, firstAttemptAtMs)).toBe(expected);
  });
});
