import { BANK_TAKEOVER_MS } from "../../limits";
import type { TimerModule } from "../../timer-module";
import { askAgain, recordRefundResult, REFUND_CHECK_TIMER } from "./record";

/**
 * "refund-check": the next question to the bank about a pending refund; key = refundId.
 * At start every pending refund is due at once (`pending`): those the bank answered `pending` get
 * their status, and those whose first answer was lost in a crash are sent again (record.ts). The
 * handler re-reads the row, so a duplicate or stale timer for a refund already final does nothing.
 */
export const refundCheckTimer: TimerModule = {
  kind: REFUND_CHECK_TIMER,
  takeoverAfterMs: BANK_TAKEOVER_MS,
  handler: (deps) => async (refundId, dueAtMs) => {
    if (deps.clock.nowMs() < dueAtMs) {
      deps.timers.schedule(REFUND_CHECK_TIMER, refundId, dueAtMs);
      return;
    }
    const refund = await deps.store.q.refunds.get(refundId);
    if (!refund || refund.status !== "pending") return;
    const captureReference = (await deps.store.q.payments.get(refund.paymentCode))?.bankReference;
    if (!captureReference) {
      deps.log.error("refund: payment has no bank reference", { refundId, paymentCode: refund.paymentCode });
      return;
    }
    const result = await askAgain(deps, refund, captureReference);
    await deps.store.write((tx) => recordRefundResult(tx, deps, refundId, result, deps.clock.nowMs()));
  },
  pending: async (deps) => (await deps.store.q.refunds.allPending()).map((r) => ({ key: r.id, dueAtMs: r.updatedAtMs })),
};
