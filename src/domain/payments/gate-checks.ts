import type { Deps } from "../../deps";
import { bankOf } from "./bank-of";
import { voidLateCapture } from "./capture-record";
import { CAPTURE_CHECK_TIMER, nextCheckAtMs } from "./check-timing";
import type { CaptureCheckRow } from "../../store/rows-money";

// An attempt sent to a bank that charges at its own 3D gate (3D Pay: the callback carries the
// result) may have been charged although its callback never came: the buyer closed the window
// after the bank approved. Whatever ends such an attempt without a callback (the payment's window
// closing, a link that no longer takes the payment) asks the bank at once, and voids an approval:
// a buyer is never charged for a payment kasa shows expired or failed (docs/banks.md, Lost 3D Pay
// callbacks). The question is a `resolve` check of the attempt with no capture claimed, on the
// same timer and table as a capture's, so a restart between the expiry and the void resumes it.
// The question is opened by gate-charges.ts, in the unit that ends the attempt.

/**
 * A `resolve` check whose attempt never claimed a capture is a question to a 3D Pay gate: approved
 * there, the charge is voided (the check becomes a void); declined or unknown to the bank, the
 * check ends; no answer, it is asked again later. Never a second charge, never a blind void.
 */
export async function resolveGateCheck(deps: Deps, check: CaptureCheckRow, installment: number): Promise<void> {
  const attemptId = check.attemptId;
  const bank = await bankOf(deps, check.connectionId);
  const status = await bank.captureStatus({ attemptId, amount: check.amount, installment, bankProfile: "" });
  const nowMs = deps.clock.nowMs();
  if (status.approved === null) {
    const dueAtMs = nextCheckAtMs(check.tries, nowMs);
    await deps.store.write(async (tx) => void (await tx.bank.retryCheck(attemptId, dueAtMs, nowMs)));
    deps.timers.cancel(CAPTURE_CHECK_TIMER, attemptId);
    deps.timers.schedule(CAPTURE_CHECK_TIMER, attemptId, dueAtMs);
    return;
  }
  if (!status.approved) {
    await deps.store.write(async (tx) => void (await tx.bank.finishCheck(attemptId, "failed", nowMs)));
    return;
  }
  deps.log.warn("a 3D Pay gate approved an attempt whose callback never came; voiding it", {
    attemptId,
    bankReference: status.bankReference,
  });
  const voidCheck = { attemptId, connectionId: check.connectionId, amount: check.amount, bankReference: status.bankReference };
  await deps.store.write(async (tx) => void (await tx.bank.openCheck({ ...voidCheck, kind: "void", dueAtMs: nowMs }, nowMs)));
  await voidLateCapture(deps, attemptId);
}
