import type { CaptureResult } from "../../bank/gateway";
import type { Deps } from "../../deps";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { bankOf } from "./bank-of";
import { CAPTURE_CHECK_TIMER, FIRST_RETRY_MS, nextCheckAtMs } from "./check-timing";
import { ATTEMPT_TRANSITIONS } from "./machine";
import { askSubscribers } from "./events";
import { connectionOfAttempt } from "./routing";
import { capturePayment, failPayment } from "./transitions";
import type { PaymentRow } from "../../store/rows-money";

// What a capture answer does to the attempt, the payment and the attempt's capture check (issue
// 16, docs/banks.md): approved and still capturable is captured; approved too late is voided
// automatically; declined fails the payment; unknown leaves the attempt capturing and asks again
// on a timer (30 s, 2 min, 10 min, 1 h, then hourly), never sending the capture again.

/** One timer per open check: the one scheduled with the capture is replaced, not added to. */
function rescheduleCheck(deps: Deps, attemptId: string, dueAtMs: number): void {
  deps.timers.cancel(CAPTURE_CHECK_TIMER, attemptId);
  deps.timers.schedule(CAPTURE_CHECK_TIMER, attemptId, dueAtMs);
}

export type CaptureRecorded = "captured" | "failed" | "voiding" | "pending";

// Captures this process is sending right now, per store: their check waits for the answer
// instead of asking the bank about an order whose Auth is still on the wire.
const inFlight = new WeakMap<object, Set<string>>();

export async function whileCapturing<T>(deps: Deps, attemptId: string, send: () => Promise<T>): Promise<T> {
  let set = inFlight.get(deps.store);
  if (!set) {
    set = new Set();
    inFlight.set(deps.store, set);
  }
  set.add(attemptId);
  try {
    return await send();
  } finally {
    set.delete(attemptId);
  }
}

export const isCapturing = (deps: Deps, attemptId: string): boolean => inFlight.get(deps.store)?.has(attemptId) ?? false;

export async function recordCapture(
  tx: Repos,
  deps: Deps,
  attemptId: string,
  before: PaymentRow,
  result: CaptureResult,
  nowMs: number,
): Promise<CaptureRecorded> {
  await tx.attempts.lock(attemptId);
  const attempt = await tx.attempts.get(attemptId);
  // Recorded already (by the check, after a restart): report what was recorded.
  if (!attempt || attempt.status !== "capturing") return attempt?.status === "captured" ? "captured" : "failed";
  if (result.approved === null) {
    const check = await tx.bank.check(attemptId);
    const dueAtMs = nextCheckAtMs(check?.tries ?? 0, nowMs);
    await tx.bank.retryCheck(attemptId, dueAtMs, nowMs);
    rescheduleCheck(deps, attemptId, dueAtMs);
    deps.log.warn("capture outcome still unknown; the attempt stays open", { attemptId, detail: result.detail, nextCheckAtMs: dueAtMs });
    return "pending";
  }
  // A subscriber refused the capture meanwhile (the link closed while the bank captured): the payment fails, and an approved charge takes the path below of a capture that
  // found its payment no longer initiated.
  if ((await askSubscribers(tx, deps, "capturing", before, nowMs)) !== null)
    await failPayment(tx, deps, (await tx.payments.get(before.code)) ?? before, nowMs);
  const payment = (await tx.payments.get(before.code)) ?? before;
  if (result.approved && (await capturePayment(tx, deps, payment, result, nowMs, attempt.terminalId ?? payment.terminalId))) {
    const t = ATTEMPT_TRANSITIONS.capture;
    await tx.attempts.move(attemptId, t.from, t.to, nowMs);
    await tx.bank.finishCheck(attemptId, "captured", nowMs);
    return "captured";
  }
  const t = ATTEMPT_TRANSITIONS.rejectCapture;
  await tx.attempts.move(attemptId, t.from, t.to, nowMs);
  if (result.approved) {
    // The window closed (or the link did) while the bank was capturing: the charge is voided.
    deps.log.warn("capture approved after the payment left initiated; voiding it", {
      paymentCode: payment.code,
      attemptId,
      status: payment.status,
      bankReference: result.bankReference,
    });
    const connectionId = connectionOfAttempt(attempt);
    const check = { attemptId, connectionId, amount: payment.amount, bankReference: result.bankReference };
    await tx.bank.openCheck({ ...check, kind: "void", dueAtMs: nowMs + FIRST_RETRY_MS }, nowMs);
    return "voiding";
  }
  await tx.bank.finishCheck(attemptId, "failed", nowMs);
  await failPayment(tx, deps, payment, nowMs);
  return "failed";
}

/**
 * Voids a capture approved too late (outside any unit). A retry first asks the bank's status, so
 * a void whose answer was lost is not taken for a decline. A decline is logged for an operator.
 */
export async function voidLateCapture(deps: Deps, attemptId: string): Promise<void> {
  const check = await deps.store.q.bank.check(attemptId);
  if (!check || check.kind !== "void" || check.dueAtMs === null) return;
  invariant(check.bankReference !== null, `void check ${attemptId} has no capture reference`);
  const bank = await bankOf(deps, check.connectionId);
  const payment = await deps.store.q.attempts.get(attemptId);
  const installment = payment ? ((await deps.store.q.payments.get(payment.paymentCode))?.installment ?? 1) : 1;
  const input = { attemptId, amount: check.amount, installment, bankProfile: "" };
  if (check.tries > 0) {
    const status = await bank.captureStatus(input);
    if (status.approved === false) {
      // Nothing is held at the bank any more (voided there, or never charged).
      await deps.store.write(async (tx) => void (await tx.bank.finishCheck(attemptId, "voided", deps.clock.nowMs())));
      deps.log.warn("late capture voided", { attemptId, bankReference: check.bankReference, found: status.errMsg ?? null });
      return;
    }
    if (status.approved === null) return retryVoid(deps, attemptId, check.tries);
  }
  const result = await bank.void({
    idempotencyKey: `${attemptId}-void`,
    bankReference: check.bankReference,
    amount: check.amount,
    nowMs: deps.clock.nowMs(),
  });
  if (result.status === "pending") return retryVoid(deps, attemptId, check.tries);
  const outcome = result.status === "approved" ? "voided" : "void_declined";
  await deps.store.write(async (tx) => void (await tx.bank.finishCheck(attemptId, outcome, deps.clock.nowMs())));
  const fields = { attemptId, bankReference: check.bankReference, procReturnCode: result.procReturnCode, errMsg: result.errMsg };
  if (outcome === "voided") deps.log.warn("late capture voided", fields);
  else deps.log.error("late capture: the bank refused the void; an operator must act", fields);
}

async function retryVoid(deps: Deps, attemptId: string, tries: number): Promise<void> {
  const dueAtMs = nextCheckAtMs(tries, deps.clock.nowMs());
  await deps.store.write(async (tx) => void (await tx.bank.retryCheck(attemptId, dueAtMs, deps.clock.nowMs())));
  rescheduleCheck(deps, attemptId, dueAtMs);
}
