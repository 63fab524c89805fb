import type { CaptureResult } from "../../bank/gateway";
import type { Deps } from "../../deps";
import { invariant } from "../../invariant";
import type { PaymentRow } from "../../store/payments-sql";
import type { Repos } from "../../store/repos";
import { isLinkClosedFor } from "../link-checkout/attempt-guard";
import { ATTEMPT_TRANSITIONS } from "../payments/machine";
import { capturePayment, expireIfDue, failPayment } from "../payments/transitions";
import type { CallbackOutcome } from "./outcomes";

type Closed = { kind: "rejected" } | { kind: "done"; payment: PaymentRow } | { kind: "capture"; payment: PaymentRow };

/**
 * Product 6.4: the ACS result for one attempt. The simulated bank is stateless, so a genuine token
 * stays genuine until its deadline; what makes a replay harmless is the attempt, which the first
 * use moves out of `acs` in a conditional update. Forged, tampered or replayed callbacks change
 * nothing. Capture happens outside any unit, between recording "capturing" and the result, and
 * the payment moves only by conditional update: never captured twice.
 */
export async function completeCallback(deps: Deps, attemptId: string, form: Readonly<Record<string, string>>): Promise<CallbackOutcome> {
  const attempt = deps.store.q.attempts.get(attemptId);
  if (!attempt || attempt.status !== "acs") return { kind: "rejected" };
  const verified = await deps.bank.verifyCallback(form, { attemptId, nowMs: deps.clock.nowMs() });
  if (!verified.ok) return { kind: "rejected" };
  const closed = await deps.store.write((tx) => closeAttempt(tx, deps, attemptId, verified.authenticated, deps.clock.nowMs()));
  if (closed.kind === "rejected") return closed;
  if (closed.kind === "done") return redirectOf(closed.payment, "failed");
  const { payment } = closed;
  const captured = await deps.bank.capture({ attemptId, amount: payment.amount, bankProfile: verified.bankProfile });
  const status = await deps.store.write((tx) => recordCapture(tx, deps, attemptId, payment, captured, deps.clock.nowMs()));
  return redirectOf(payment, status);
}

/**
 * The first use of a genuine callback closes the attempt. Not authenticated: 3D rejected, the
 * payment fails. A payment that is no longer initiated, or whose window has passed (it is expired
 * here, the timer may not have run yet), is not captured: the attempt is closed as failed.
 */
function closeAttempt(tx: Repos, deps: Deps, attemptId: string, authenticated: boolean, nowMs: number): Closed {
  const attempt = tx.attempts.get(attemptId);
  if (!attempt || attempt.status !== "acs") return { kind: "rejected" };
  const found = tx.payments.get(attempt.paymentCode);
  invariant(found, `attempt ${attemptId} refers to a missing payment`);
  const payment = expireIfDue(tx, deps, found, nowMs);
  if (payment.status !== "initiated") {
    tx.attempts.move(attemptId, ATTEMPT_TRANSITIONS.abandon.from, ATTEMPT_TRANSITIONS.abandon.to, nowMs);
    return { kind: "done", payment };
  }
  // Product 23: a link cancelled or expired while the buyer was at the bank takes no capture.
  if (isLinkClosedFor(tx, deps, payment, nowMs)) {
    tx.attempts.move(attemptId, ATTEMPT_TRANSITIONS.abandon.from, ATTEMPT_TRANSITIONS.abandon.to, nowMs);
    failPayment(tx, deps, payment, nowMs);
    return { kind: "done", payment };
  }
  if (!authenticated) {
    const t = ATTEMPT_TRANSITIONS.rejectAuthentication;
    tx.attempts.move(attemptId, t.from, t.to, nowMs);
    failPayment(tx, deps, payment, nowMs);
    return { kind: "done", payment };
  }
  const t = ATTEMPT_TRANSITIONS.authenticate;
  invariant(tx.attempts.move(attemptId, t.from, t.to, nowMs), "an attempt read as acs in this unit can be closed");
  return { kind: "capture", payment };
}

function recordCapture(
  tx: Repos,
  deps: Deps,
  attemptId: string,
  before: PaymentRow,
  result: CaptureResult,
  nowMs: number,
): "captured" | "failed" {
  // Product 23: the link closed while the bank captured: the payment fails, and an approved charge
  // takes the path below of a capture that found its payment no longer initiated.
  if (isLinkClosedFor(tx, deps, before, nowMs)) failPayment(tx, deps, tx.payments.get(before.code) ?? before, nowMs);
  const payment = tx.payments.get(before.code) ?? before;
  if (result.approved && capturePayment(tx, deps, payment, result, nowMs)) {
    const t = ATTEMPT_TRANSITIONS.capture;
    tx.attempts.move(attemptId, t.from, t.to, nowMs);
    return "captured";
  }
  const t = ATTEMPT_TRANSITIONS.rejectCapture;
  tx.attempts.move(attemptId, t.from, t.to, nowMs);
  if (result.approved) {
    // The window closed while the bank was capturing: the payment is expired and stays so. The
    // bank reference is logged (no card data in it) so an operator can void the charge.
    deps.log.warn("capture approved after the payment left initiated", {
      paymentCode: payment.code,
      attemptId,
      status: payment.status,
      bankReference: result.bankReference,
    });
    return "failed";
  }
  failPayment(tx, deps, payment, nowMs);
  return "failed";
}

/** Product 6.4: 303 to returnUrl with `paymentCode` and `status` appended to its query. */
function redirectOf(payment: PaymentRow, status: "captured" | "failed"): CallbackOutcome {
  invariant(payment.returnUrl !== null, `payment ${payment.code} has no returnUrl`);
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
