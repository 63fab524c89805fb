import type { BankGateway, RefundResult } from "../../bank/gateway";
import type { Deps } from "../../deps";
import { invariant } from "../../invariant";
import { BANK_RETRY_MS } from "../../limits";
import type { Repos } from "../../store/store";
import { bankOf, captureConnectionOf } from "../payments/bank-of";
import { enqueueWebhook } from "../webhooks/outbox";
import { PAYMENT_REFUND_MOVES, REFUND_TRANSITIONS } from "./machine";
import type { RefundOutcome, RefundRow } from "../../store/rows-money";

// The bank side of a refund (DESIGN request flow 3): the refund row is `pending` before the bank is
// asked, the bank is asked outside any unit of work, and its answer is recorded in a second unit
// together with the payment's new balance and the outbox row. Whatever happens in between (a crash,
// an unreachable bank), the row stays pending and the "refund-check" timer asks again.

/** Timer kind of a pending refund's next question to the bank; key = refundId. */
export const REFUND_CHECK_TIMER = "refund-check";

/** The adapter of the connection that captured the refunded payment (docs/banks.md). */
async function bankOfRefund(deps: Deps, refund: RefundRow): Promise<BankGateway> {
  const payment = await deps.store.q.payments.get(refund.paymentCode);
  invariant(payment, `refund ${refund.id} refers to a missing payment`);
  return await bankOf(deps, await captureConnectionOf(deps.store.q, payment));
}

/**
 * Sends the refund or void; null when the bank could not be reached (asked again later). A bank
 * without idempotency keys gets its marker recorded first (gateway `refundMarker`), so whatever
 * happens after the send is resolved by asking, never by sending again.
 */
export async function sendToBank(deps: Deps, refund: RefundRow, captureReference: string): Promise<RefundResult | null> {
  const input = { idempotencyKey: refund.id, bankReference: captureReference, amount: refund.amount, nowMs: deps.clock.nowMs() };
  const bank = await bankOfRefund(deps, refund);
  try {
    if (bank.refundMarker) {
      const marker = await bank.refundMarker(refund.method, input);
      if (marker === null) return null;
      await deps.store.write((tx) => tx.refunds.notePendingAtBank(refund.id, marker, deps.clock.nowMs()));
    }
    return refund.method === "void" ? await bank.void(input) : await bank.refund(input);
  } catch (error) {
    deps.log.warn("refund: bank call failed", { refundId: refund.id, error });
    return null;
  }
}

/**
 * Asks again about a pending refund. With the bank's reference: its status. Without one the bank's
 * first answer was never recorded (the process stopped between the call and the second unit), so
 * the request is sent again: kasa's ledger still holds exactly one refund (the pending row), and
 * the answer is recorded once, by conditional update.
 */
export async function askAgain(deps: Deps, refund: RefundRow, captureReference: string): Promise<RefundResult | null> {
  if (refund.bankReference === null) return sendToBank(deps, refund, captureReference);
  try {
    return await (await bankOfRefund(deps, refund)).refundStatus({
      bankReference: captureReference,
      refundReference: refund.bankReference,
      nowMs: deps.clock.nowMs(),
    });
  } catch (error) {
    deps.log.warn("refund: bank status call failed", { refundId: refund.id, error });
    return null;
  }
}

const outcomeOf = (r: RefundResult): RefundOutcome => ({
  procReturnCode: r.procReturnCode,
  authCode: r.authCode,
  errMsg: r.errMsg,
  bankReference: r.bankReference,
});

/**
 * The second unit: records the bank's answer on a refund that is still pending and answers the row
 * as it now stands. `null` (no answer) and `pending` schedule the next question.
 */
export async function recordRefundResult(
  tx: Repos,
  deps: Deps,
  refundId: string,
  result: RefundResult | null,
  nowMs: number,
): Promise<RefundRow> {
  const refund = await tx.refunds.get(refundId);
  invariant(refund, `refund ${refundId} vanished`);
  if (refund.status !== "pending") return refund;
  if (result === null || result.status === "pending") {
    if (result?.bankReference) await tx.refunds.notePendingAtBank(refund.id, result.bankReference, nowMs);
    const nextAtMs = Math.max(nowMs, result?.nextCheckAtMs ?? nowMs + BANK_RETRY_MS);
    deps.timers.schedule(REFUND_CHECK_TIMER, refund.id, nextAtMs);
  } else if (result.status === "approved") {
    await approve(tx, deps, refund, result, nowMs);
  } else {
    const t = REFUND_TRANSITIONS.decline;
    if (await tx.refunds.finish(refund.id, t.from, t.to, outcomeOf(result), nowMs)) {
      await enqueueWebhook(tx, deps, refund.partnerId, { type: "refund.declined", paymentCode: refund.paymentCode }, nowMs);
    }
  }
  return (await tx.refunds.get(refundId)) ?? refund;
}

/**
 * pending -> approved, and the payment's balance with it (docs/contract.md, Refunds): the store refuses to go past
 * the amount, or to void a settled payment. Neither can happen: the pending row reserved the amount
 * and a day end does not settle a payment whose void is pending. So a refusal is our bug.
 */
async function approve(tx: Repos, deps: Deps, refund: RefundRow, result: RefundResult, nowMs: number): Promise<void> {
  const t = REFUND_TRANSITIONS.approve;
  if (!(await tx.refunds.finish(refund.id, t.from, t.to, outcomeOf(result), nowMs))) return;
  const move = PAYMENT_REFUND_MOVES[refund.method];
  const moved = await tx.refunds.applyToPayment(
    refund.paymentCode,
    move.from,
    refund.amount,
    move.whenDone,
    refund.method === "void",
    nowMs,
  );
  invariant(moved, `approved refund ${refund.id} does not fit payment ${refund.paymentCode}`);
  await enqueueWebhook(tx, deps, refund.partnerId, { type: "refund.approved", paymentCode: refund.paymentCode }, nowMs);
}
