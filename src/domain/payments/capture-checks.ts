import type { TimerModule } from "../../timer-module";
import { bankOf } from "./bank-of";
import { BANK_TAKEOVER_MS, SECOND_MS } from "../../limits";
import { isCapturing, recordCapture, voidLateCapture, whileCapturing } from "./capture-record";
import { CAPTURE_CHECK_TIMER } from "./check-timing";
import { resolveGateCheck } from "./gate-checks";

/**
 * "capture-check" (issue 16, docs/banks.md): an attempt whose capture answer is unknown, or was lost
 * in a crash, is resolved by asking the bank's status (never by capturing again); a capture
 * approved too late is voided. Rebuilt at start from the open checks. The handler re-reads the
 * check, so a stale or duplicate timer does nothing.
 */
export const captureCheckTimer: TimerModule = {
  kind: CAPTURE_CHECK_TIMER,
  takeoverAfterMs: BANK_TAKEOVER_MS,
  handler: (deps) => async (attemptId, dueAtMs) => {
    // A unit that opened the check and scheduled this timer due at once (an expiry asking a 3D Pay
    // gate) may not have committed yet on PostgreSQL: when the check is not seen, it is read again
    // under the attempt's lock, which waits for that unit. SQLite's queue already ran it.
    const check =
      (await deps.store.q.bank.check(attemptId)) ??
      (await deps.store.write(async (tx) => {
        await tx.attempts.lock(attemptId);
        return await tx.bank.check(attemptId);
      }));
    if (!check || check.dueAtMs === null) return;
    const due = Math.max(dueAtMs, check.dueAtMs);
    if (deps.clock.nowMs() < due) {
      deps.timers.schedule(CAPTURE_CHECK_TIMER, attemptId, due);
      return;
    }
    if (isCapturing(deps, attemptId)) {
      deps.timers.schedule(CAPTURE_CHECK_TIMER, attemptId, deps.clock.nowMs() + 30 * SECOND_MS);
      return;
    }
    if (check.kind === "void") return voidLateCapture(deps, attemptId);
    const attempt = await deps.store.q.attempts.get(attemptId);
    const payment = attempt && (await deps.store.q.payments.get(attempt.paymentCode));
    // No capture was ever claimed: the question to a 3D Pay gate of an attempt that ended without its callback.
    if (attempt && payment && !(await deps.store.q.bank.authClaimed(attemptId))) return resolveGateCheck(deps, check, payment.installment);
    if (!attempt || !payment || attempt.status !== "capturing") {
      await deps.store.write(async (tx) => void (await tx.bank.finishCheck(attemptId, "failed", deps.clock.nowMs())));
      return;
    }
    const input = { attemptId, amount: check.amount, installment: payment.installment, bankProfile: "" };
    const result = await whileCapturing(deps, attemptId, async () => await (await bankOf(deps, check.connectionId)).captureStatus(input));
    const recorded = await deps.store.write((tx) => recordCapture(tx, deps, attemptId, payment, result, deps.clock.nowMs()));
    if (recorded === "voiding") await voidLateCapture(deps, attemptId);
  },
  pending: async (deps) => (await deps.store.q.bank.openChecks()).map((c) => ({ key: c.attemptId, dueAtMs: c.dueAtMs ?? 0 })),
};
