import { fail } from "../../errors";
import { invariant } from "../../invariant";
import { REFUNDS_PER_PAYMENT_MAX } from "../../limits";
import { REFUNDABLE_STATUSES } from "./machine";
import type { PaymentStatus, RefundMethod } from "../../store/rows-money";

/**
 * Which refund endpoint was called (docs/contract.md, Refunds): `auto` is `POST …/refunds`, which picks
 * the method itself; `void` and `credit` force one.
 */
export type RefundEndpoint = "auto" | "void" | "credit";

/**
 * The precedence of every refusal, fixed here and walked in this order by the API tests
 * (docs/contract.md, Requests and authentication: business rules in the order the endpoint's tests fix):
 *
 *  1. body shape                                        400 validation_error (endpoint pipeline)
 *  2. partner not accepting                             403 partner_not_active
 *  3. payment unknown or another partner's              404 payment_not_found
 *  4. partnerRefundCode already used by the partner     409 refund_in_progress
 *  5. nothing to refund (not captured, voided, refunded,
 *     or REFUNDS_PER_PAYMENT_MAX refunds already)       422 payment_not_refundable
 *  6. a refund of the payment is pending                409 refund_in_progress
 *  7. amount above the remaining balance                422 refund_amount_exceeds_remaining
 *  8. direct-collection terminal, not a same-day
 *     full void                                         422 direct_refund_not_allowed
 *  9. method: same-day partial on `auto`                422 refund_not_yet_available
 *             void impossible on `void`                 422 refund_method_not_available
 *
 * Steps 2-4 need the database and live in service.ts; this file is steps 5-9.
 */
export type RefundFacts = {
  status: PaymentStatus;
  /** Refund records of the payment so far, whatever their status. */
  count: number;
  /** Amount of the pending refund, 0 when none. */
  pending: number;
  /** amount - approved - pending. */
  remaining: number;
  /** Requested amount; null = the whole remainder (docs/decisions.md, Readings of the contract). */
  requested: number | null;
  /** Captured on today's Istanbul date and not settled by a day end (docs/contract.md, Refunds). */
  sameDay: boolean;
  /** An approved credit refund exists: the capture can no longer be voided at the bank. */
  approvedCredit: boolean;
  directCollection: boolean;
};

export type RefundDecision = { method: RefundMethod; amount: number };

/** docs/contract.md#refunds's method table and the refusals of steps 5-9 above, in that order. */
export function decideRefund(endpoint: RefundEndpoint, f: RefundFacts): RefundDecision {
  if (!(REFUNDABLE_STATUSES as readonly PaymentStatus[]).includes(f.status)) {
    fail("payment_not_refundable", `payment: its status is ${f.status}, which has nothing to refund`);
  }
  if (f.count >= REFUNDS_PER_PAYMENT_MAX) fail("payment_not_refundable", `payment: at most ${REFUNDS_PER_PAYMENT_MAX} refunds per payment`);
  if (f.pending > 0) fail("refund_in_progress", "payment: a refund of this payment is pending");
  invariant(f.remaining > 0, "a captured payment without a pending refund has something left");
  const amount = f.requested ?? f.remaining;
  if (amount > f.remaining) fail("refund_amount_exceeds_remaining", `amount: must be <= ${f.remaining}, the remaining balance`);
  const voidable = f.sameDay && amount === f.remaining && !f.approvedCredit;
  if (f.directCollection && (endpoint === "credit" || !voidable)) fail("direct_refund_not_allowed");
  switch (endpoint) {
    case "void":
      if (!voidable) fail("refund_method_not_available", voidRefusal(f, amount));
      return { method: "void", amount };
    case "credit":
      return { method: "credit", amount };
    case "auto":
      if (voidable) return { method: "void", amount };
      // A same-day remainder after an approved credit can only be credited too.
      if (f.sameDay && amount !== f.remaining) fail("refund_not_yet_available", "amount: a partial refund is possible after day end");
      return { method: "credit", amount };
  }
}

function voidRefusal(f: RefundFacts, amount: number): string {
  if (!f.sameDay) return "payment: a void is possible only on the day of capture, before day end";
  if (amount !== f.remaining) return `amount: a void takes the whole remaining balance (${f.remaining})`;
  return "payment: an approved credit refund exists";
}
