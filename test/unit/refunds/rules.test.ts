import { describe, expect, it } from "vitest";
import { isApiError } from "../../../src/errors";
import { decideRefund, type RefundEndpoint, type RefundFacts } from "../../../src/domain/refunds/rules";
import { REFUNDS_PER_PAYMENT_MAX } from "../../../src/limits";

// product 9 and 16: the method table and the refusals of steps 5-9 (rules.ts), without a database.

const FACTS: RefundFacts = {
  status: "captured",
  count: 0,
  pending: 0,
  remaining: 10_000,
  requested: null,
  sameDay: true,
  approvedCredit: false,
  directCollection: false,
};

function outcome(endpoint: RefundEndpoint, over: Partial<RefundFacts>): string {
  try {
    const d = decideRefund(endpoint, { ...FACTS, ...over });
    return `${d.method} ${d.amount}`;
  } catch (error) {
    if (isApiError(error)) return error.code;
    throw error;
  }
}

describe("product 9: the method each endpoint takes", () => {
  it.each([
    ["auto", {}, "void 10000"],
    ["auto", { requested: 10_000 }, "void 10000"],
    ["auto", { requested: 4_000 }, "refund_not_yet_available"],
    ["auto", { sameDay: false }, "credit 10000"],
    ["auto", { sameDay: false, requested: 4_000 }, "credit 4000"],
    ["auto", { approvedCredit: true, remaining: 6_000 }, "credit 6000"],
    ["auto", { approvedCredit: true, remaining: 6_000, requested: 1_000 }, "refund_not_yet_available"],
    ["void", {}, "void 10000"],
    ["void", { requested: 4_000 }, "refund_method_not_available"],
    ["void", { sameDay: false }, "refund_method_not_available"],
    ["void", { approvedCredit: true, remaining: 6_000 }, "refund_method_not_available"],
    ["credit", {}, "credit 10000"],
    ["credit", { requested: 1 }, "credit 1"],
    ["credit", { sameDay: false, requested: 9_999 }, "credit 9999"],
  ] as const)("%s with %o -> %s", (endpoint, over, expected) => {
    expect(outcome(endpoint, over)).toBe(expected);
  });

  it.each([
    ["auto", {}, "void 10000"],
    ["void", {}, "void 10000"],
    ["credit", {}, "direct_refund_not_allowed"],
    ["auto", { requested: 4_000 }, "direct_refund_not_allowed"],
    ["void", { requested: 4_000 }, "direct_refund_not_allowed"],
    ["auto", { sameDay: false }, "direct_refund_not_allowed"],
    ["void", { sameDay: false }, "direct_refund_not_allowed"],
    ["credit", { sameDay: false }, "direct_refund_not_allowed"],
  ] as const)("direct collection: %s with %o -> %s (only a same-day full void)", (endpoint, over, expected) => {
    expect(outcome(endpoint, { ...over, directCollection: true })).toBe(expected);
  });
});

describe("product 9: refusals of rules.ts steps 5-9 in their order", () => {
  it.each(["initiated", "failed", "expired", "voided", "refunded"] as const)("payment_not_refundable on %s", (status) => {
    for (const endpoint of ["auto", "void", "credit"] as const)
      expect(outcome(endpoint, { status, pending: 500 })).toBe("payment_not_refundable");
  });

  it.each([
    ["5 too many refunds over a pending one", { count: REFUNDS_PER_PAYMENT_MAX, pending: 500 }, "payment_not_refundable"],
    ["6 a pending refund over the amount", { pending: 500, remaining: 9_500, requested: 99_999 }, "refund_in_progress"],
    ["7 the amount over direct collection", { directCollection: true, requested: 10_001 }, "refund_amount_exceeds_remaining"],
    ["8 direct collection over refund_not_yet_available", { directCollection: true, requested: 1 }, "direct_refund_not_allowed"],
  ] as const)("%s", (_name, over, expected) => {
    expect(outcome("auto", over)).toBe(expected);
  });

  it("the limit of refund records per payment", () => {
    expect(outcome("credit", { count: REFUNDS_PER_PAYMENT_MAX - 1, requested: 1 })).toBe("credit 1");
    expect(outcome("credit", { count: REFUNDS_PER_PAYMENT_MAX, requested: 1 })).toBe("payment_not_refundable");
  });
});
