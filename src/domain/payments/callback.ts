import type { BankCallback, BankGateway, CaptureInput, CaptureResult } from "../../bank/gateway";
import type { Deps } from "../../deps";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { bankOf } from "./bank-of";
import { ATTEMPT_TRANSITIONS } from "./machine";
import { askSubscribers } from "./events";
import { connectionOfAttempt } from "./routing";
import { expireIfDue, failPayment } from "./transitions";
import { askAboutGateCharges } from "./gate-charges";
import { recordCapture, whileCapturing, voidLateCapture, type CaptureRecorded } from "./capture-record";
import { CAPTURE_CHECK_FIRST_MS, CAPTURE_CHECK_TIMER } from "./check-timing";
import type { CallbackOutcome } from "./handoff-outcomes";
import type { PaymentRow } from "../../store/rows-money";

type Closed = { kind: "rejected" } | { kind: "done"; payment: PaymentRow } | { kind: "capture"; payment: PaymentRow };

/**
 * The bank's result for one attempt (docs/checkout.md, The callback), checked by the adapter of the
 * attempt's connection (chosen at 3D start, routing.ts). What makes a replay or a concurrent
 * callback harmless is the attempt, which the first use moves out of `acs` in a conditional update,
 * together with the one-Auth claim (a primary key) and a capture check that outlives a crash. The
 * capture is sent outside any unit, between recording "capturing" and the result. An unknown answer
 * is asked about (ORDERSTATUS), never sent again; a capture approved after the payment could no
 * longer take it is voided.
 */
export async function completeCallback(deps: Deps, attemptId: string, callback: BankCallback): Promise<CallbackOutcome> {
  const attempt = await deps.store.q.attempts.get(attemptId);
  if (!attempt || attempt.status !== "acs") return { kind: "rejected" };
  const opened = await deps.store.q.payments.get(attempt.paymentCode);
  invariant(opened, `attempt ${attemptId} refers to a missing payment`);
  const bank = await bankOf(deps, connectionOfAttempt(attempt));
  const context = {
    attemptId,
    amount: opened.amount,
    installment: opened.installment,
    maskedPan: opened.maskedPan,
    nowMs: deps.clock.nowMs(),
  };
  const verified = await bank.verifyCallback(callback, context);
  if (!verified.ok) {
    // Kept for diagnosis: which attempt and why, never the posted values (docs/banks.md).
    deps.log.warn("bank callback refused", { attemptId, bank: bank.bank, reason: verified.reason ?? "not genuine" });
    return { kind: "rejected" };
  }
  const closed = await deps.store.write((tx) => closeAttempt(tx, deps, attemptId, verified.authenticated, deps.clock.nowMs()));
  if (closed.kind === "rejected") return closed;
  if (closed.kind === "done") return redirectOf(closed.payment, "failed");
  const { payment } = closed;
  const input: CaptureInput = { attemptId, amount: payment.amount, installment: payment.installment, bankProfile: verified.bankProfile };
  const captured = await whileCapturing(deps, attemptId, () => captureOnce(deps, bank, input));
  const recorded = await deps.store.write((tx) => recordCapture(tx, deps, attemptId, payment, captured, deps.clock.nowMs()));
  if (recorded === "voiding") await voidLateCapture(deps, attemptId);
  return redirectOf(payment, recorded);
}

/** The one capture request of the attempt; an unknown answer is asked about once right away. */
async function captureOnce(deps: Deps, bank: BankGateway, input: CaptureInput): Promise<CaptureResult> {
  const result = await bank.capture(input);
  if (result.approved !== null) return result;
  deps.log.warn("capture outcome unknown; asking the bank", { attemptId: input.attemptId, detail: result.detail });
  return bank.captureStatus(input);
}

/**
 * The first use of a genuine callback closes the attempt. Not authenticated: 3D rejected, the
 * payment fails. A payment that is no longer initiated, or whose window has passed (it is expired
 * here, the timer may not have run yet), is not captured: the attempt is closed as failed.
 * Authenticated: the attempt moves to capturing, the one Auth is claimed and its check opened.
 */
async function closeAttempt(tx: Repos, deps: Deps, attemptId: string, authenticated: boolean, nowMs: number): Promise<Closed> {
  // docs/postgresql.md: racing callbacks take turns; the first closes the attempt, the others find it closed.
  await tx.attempts.lock(attemptId);
  const attempt = await tx.attempts.get(attemptId);
  if (!attempt || attempt.status !== "acs") return { kind: "rejected" };
  const found = await tx.payments.get(attempt.paymentCode);
  invariant(found, `attempt ${attemptId} refers to a missing payment`);
  const payment = await expireIfDue(tx, deps, found, nowMs);
  if (payment.status !== "initiated") {
    await tx.attempts.move(attemptId, ATTEMPT_TRANSITIONS.abandon.from, ATTEMPT_TRANSITIONS.abandon.to, nowMs);
    return { kind: "done", payment };
  }
  // A subscriber may refuse the capture (a link cancelled or expired while the buyer was at the
  // bank takes none).
  if ((await askSubscribers(tx, deps, "capturing", payment, nowMs)) !== null) {
    await tx.attempts.move(attemptId, ATTEMPT_TRANSITIONS.abandon.from, ATTEMPT_TRANSITIONS.abandon.to, nowMs);
    // A 3D Pay gate charged before the callback told kasa: asked about and voided, like an expiry's.
    await askAboutGateCharges(tx, deps, [attempt], payment.amount, nowMs);
    await failPayment(tx, deps, payment, nowMs);
    return { kind: "done", payment };
  }
  if (!authenticated) {
    const t = ATTEMPT_TRANSITIONS.rejectAuthentication;
    await tx.attempts.move(attemptId, t.from, t.to, nowMs);
    await failPayment(tx, deps, payment, nowMs);
    return { kind: "done", payment };
  }
  const t = ATTEMPT_TRANSITIONS.authenticate;
  invariant(await tx.attempts.move(attemptId, t.from, t.to, nowMs), "an attempt read as acs in this unit can be closed");
  invariant(await tx.bank.claimAuth(attemptId, nowMs), `attempt ${attemptId}: a capture was claimed before`);
  const dueAtMs = nowMs + CAPTURE_CHECK_FIRST_MS;
  await tx.bank.openCheck(
    { attemptId, connectionId: connectionOfAttempt(attempt), kind: "resolve", amount: payment.amount, bankReference: null, dueAtMs },
    nowMs,
  );
  deps.timers.schedule(CAPTURE_CHECK_TIMER, attemptId, dueAtMs);
  return { kind: "capture", payment };
}

/** docs/checkout.md, The callback: 303 to returnUrl with `paymentCode` and `status` appended to its query. */
function redirectOf(payment: PaymentRow, recorded: CaptureRecorded | "failed"): CallbackOutcome {
  invariant(payment.returnUrl !== null, `payment ${payment.code} has no returnUrl`);
  // An outcome still unknown at the bank: the payment is still initiated (the partner asks the API).
  const status = recorded === "captured" ? "captured" : recorded === "pending" ? "initiated" : "failed";
  return { kind: "redirect", location: withResult(payment.returnUrl, payment.code, status), paymentCode: payment.code, status };
}

/**
 * Appends the two parameters to the URL's own query (kept byte for byte, an existing `?a=1`
 * becomes `?a=1&paymentCode=…`), before any fragment.
 */
export function withResult(returnUrl: string, paymentCode: string, status: string): string {
  const url = new URL(returnUrl);
  const added = `paymentCode=${encodeURIComponent(paymentCode)}&status=${encodeURIComponent(status)}`;
  const query = url.search.length > 1 ? `${url.search}&${added}` : `?${added}`;
  return `${url.origin}${url.pathname}${query}${url.hash}`;
}
