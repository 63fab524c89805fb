import type { Deps } from "../../deps";
import { fail } from "../../errors";
import type { Repos } from "../../store/store";
import { isHoldingStatus } from "./machine";
import { expireIfDue, isPaymentDue } from "./transitions";
import type { RefundSummary } from "./view";
import type { PaymentRow } from "../../store/rows-money";

// Lookups of docs/contract.md, Read a payment, both scoped to the caller: another partner's payment reads
// as absent (404 payment_not_found), like an unknown one.

/**
 * A payment past its window still `initiated` (the timer has not run yet) is expired before it is
 * shown, so no lookup ever sees an initiated payment at or after its expiresAt (docs/decisions.md, Readings of the contract).
 */
async function settleDue(deps: Deps, payment: PaymentRow): Promise<PaymentRow> {
  if (!isPaymentDue(payment, deps.clock.nowMs())) return payment;
  return deps.store.write(async (tx) => {
    const fresh = await tx.payments.get(payment.code);
    return fresh ? await expireIfDue(tx, deps, fresh, deps.clock.nowMs()) : payment;
  });
}

/** docs/contract.md, Read a payment: any state. */
export async function paymentByCode(deps: Deps, partnerId: string, code: string): Promise<PaymentRow> {
  const payment = await deps.store.q.payments.getOwned(partnerId, code);
  if (!payment) fail("payment_not_found");
  return settleDue(deps, payment);
}

/**
 * docs/contract.md, Read a payment: only an active payment (initiated, captured, voided, refunded) resolves; for a
 * failed or expired one the definitive lookup is by paymentCode. Codes of every channel resolve,
 * `PL-` codes of link payments included.
 */
export async function paymentByTxCode(deps: Deps, partnerId: string, partnerTxCode: string): Promise<PaymentRow> {
  const holder = await deps.store.q.payments.holdingTxCode(partnerId, partnerTxCode);
  if (!holder) fail("payment_not_found");
  const payment = await settleDue(deps, holder);
  if (!isHoldingStatus(payment.status)) fail("payment_not_found");
  return payment;
}

/**
 * SEAM for the refunds engineer: the refund summaries of docs/contract.md#the-payment-record `refunds`, oldest first.
 * Payments alone have none; the refunds module replaces this body with its own query.
 */
export async function refundSummariesOf(q: Repos, paymentCode: string): Promise<RefundSummary[]> {
  return (await q.refunds.ofPayment(paymentCode)).map((r) => ({
    refundId: r.id,
    amount: r.amount,
    status: r.status,
    createdAtMs: r.createdAtMs,
    updatedAtMs: r.updatedAtMs,
  }));
}
