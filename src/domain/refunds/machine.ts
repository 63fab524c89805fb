import type { PaymentStatus, RefundMethod, RefundStatus } from "../../store/rows-money";

// docs/contract.md#refunds as data: refund methods and statuses, and how an approved refund moves its payment
// (docs/contract.md, Payments: `voided`, `refunded`; a partial refund keeps it `captured`). The store's conditional
// updates take their `from` lists from here.

export type { RefundMethod, RefundStatus };

export const REFUND_METHODS = ["void", "credit"] as const satisfies readonly RefundMethod[];
export const REFUND_STATUSES = ["pending", "approved", "declined"] as const satisfies readonly RefundStatus[];

/** The only payment state with something left to refund; `voided` and `refunded` have nothing left. */
export const REFUNDABLE_STATUSES = ["captured"] as const satisfies readonly PaymentStatus[];

type RefundTransition = { from: readonly RefundStatus[]; to: RefundStatus };

/** A refund is inserted `pending` before the bank is asked; the bank's final answer moves it once. */
export const REFUND_TRANSITIONS = {
  approve: { from: ["pending"], to: "approved" },
  decline: { from: ["pending"], to: "declined" },
} as const satisfies Record<string, RefundTransition>;

type PaymentMove = { from: readonly PaymentStatus[]; whenDone: PaymentStatus };

/**
 * An approved refund of each method on its payment: the amount is added to `refundedAmount`, and
 * once nothing is left the payment moves to `whenDone`. A void always takes the whole remainder.
 */
export const PAYMENT_REFUND_MOVES = {
  void: { from: ["captured"], whenDone: "voided" },
  credit: { from: ["captured"], whenDone: "refunded" },
} as const satisfies Record<RefundMethod, PaymentMove>;
