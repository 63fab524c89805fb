import type { Deps } from "../../deps";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { addDays, istanbulDate } from "../checks/istanbul-time";
import { commissionOn } from "../installments/math";
import { enqueueWebhook } from "../webhooks/outbox";
import { notifySubscribers } from "./events";
import { askAboutGateCharges } from "./gate-charges";
import { ATTEMPT_TRANSITIONS, PAYMENT_TRANSITIONS } from "./machine";
import type { TerminalRow } from "../../store/rows";
import type { CaptureFacts, PaymentRow } from "../../store/rows-money";

// The payment's own status moves (docs/contract.md, Payment states), each with its outbox row and
// then its event to the subscribers (its link's move) in the SAME unit of work. Each answers
// whether it moved: the conditional update is what makes a second capture, a late expiry or a
// replayed callback change nothing.

/** initiated -> failed: 3D or capture rejected, or the allowance exhausted (webhook payment.failed). */
export async function failPayment(
  tx: Repos,
  deps: Deps,
  payment: PaymentRow,
  nowMs: number,
  transition: { from: readonly PaymentRow["status"][] } = PAYMENT_TRANSITIONS.fail,
): Promise<boolean> {
  if (!(await tx.payments.markFailed(payment.code, transition.from, nowMs))) return false;
  await enqueueWebhook(tx, deps, payment.partnerId, { type: "payment.failed", paymentCode: payment.code }, nowMs);
  await notifySubscribers(tx, deps, "failed", payment, nowMs);
  return true;
}

export const isPaymentDue = (payment: PaymentRow, nowMs: number): boolean => payment.status === "initiated" && nowMs >= payment.expiresAtMs;

/**
 * initiated -> expired once the window has passed (docs/decisions.md, Readings of the contract: now >= expiresAt). Whatever attempt
 * is still open (a crash mid-way, an abandoned ACS page) is closed with it, so a late callback
 * finds nothing to capture. The change is stamped at `expiresAt`, the instant it took effect,
 * whoever writes it (the timer, a lookup, a create reusing the code, the handoff), so
 * `occurredAt` does not depend on how late the write ran. Answers the row as it now stands.
 */
export async function expireIfDue(tx: Repos, deps: Deps, payment: PaymentRow, nowMs: number): Promise<PaymentRow> {
  if (!isPaymentDue(payment, nowMs)) return payment;
  const atMs = payment.expiresAtMs;
  if (await tx.payments.markExpired(payment.code, PAYMENT_TRANSITIONS.expire.from, nowMs, atMs)) {
    const open = await tx.attempts.byPayment(payment.code);
    await tx.attempts.closeOpen(payment.code, ATTEMPT_TRANSITIONS.abandon.from, ATTEMPT_TRANSITIONS.abandon.to, atMs);
    // An attempt a 3D Pay gate may have charged is asked about now, and voided if it was.
    await askAboutGateCharges(tx, deps, open, payment.amount, nowMs);
    await enqueueWebhook(tx, deps, payment.partnerId, { type: "payment.expired", paymentCode: payment.code }, atMs);
    await notifySubscribers(tx, deps, "expired", payment, atMs);
  }
  return (await tx.payments.get(payment.code)) ?? payment;
}

/** initiated -> captured with the amounts of docs/contract.md, Payments (webhook payment.captured). */
export async function capturePayment(
  tx: Repos,
  deps: Deps,
  payment: PaymentRow,
  bank: { bankReference: string; authCode: string },
  nowMs: number,
  servingTerminalId: string = payment.terminalId,
): Promise<boolean> {
  // The terminal that served the attempt (a router's member, docs/routing.md): its basis and value days.
  const terminal = await tx.catalog.terminal(servingTerminalId);
  invariant(terminal, `payment ${payment.code} refers to a missing terminal`);
  const facts = toCaptureFacts(payment, terminal, bank, nowMs);
  if (!(await tx.payments.markCaptured(payment.code, PAYMENT_TRANSITIONS.capture.from, facts, nowMs))) return false;
  await enqueueWebhook(tx, deps, payment.partnerId, { type: "payment.captured", paymentCode: payment.code }, nowMs);
  await notifySubscribers(tx, deps, "captured", payment, nowMs);
  return true;
}

/**
 * docs/contract.md#payments at capture: commission on the charged amount (gross) or on the principal (net: the
 * link's base amount, or the amount of an API payment), with the rate fixed at 3D start;
 * netToPartner = amount − commission; expectedValueDate = the Istanbul date of capture plus the
 * terminal's value days for this installment count (a per-count override wins).
 */
export function toCaptureFacts(
  payment: PaymentRow,
  terminal: TerminalRow,
  bank: { bankReference: string; authCode: string },
  nowMs: number,
): CaptureFacts {
  invariant(payment.appliedRateBps !== null, `payment ${payment.code} reached capture without a rate`);
  const base = terminal.commissionBasis === "gross" ? payment.amount : payment.principal;
  const commissionAmount = commissionOn(base, payment.appliedRateBps, payment.appliedFixedFee);
  const valueDays = terminal.valueDaysByCount?.[String(payment.installment)] ?? terminal.valueDays;
  return {
    commissionAmount,
    netToPartner: payment.amount - commissionAmount,
    expectedValueDate: addDays(istanbulDate(nowMs), valueDays),
    bankReference: bank.bankReference,
    authCode: bank.authCode,
  };
}
