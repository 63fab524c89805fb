import { BANK_TAKEOVER_MS } from "../../limits";
import type { TimerModule } from "../../timer-module";
import { addDays } from "../checks/istanbul-time";
import { runDayEnd } from "./dayend";
import { dayEndDueAtMs, firstDayToEnd } from "./days";
import { payBatch, PAYOUT_TIMER } from "./payouts";

/** Timer kind of day end (docs/contract.md, Refunds); key = the Istanbul date that ends, due at 00:00 of the next. */
export const DAYEND_TIMER = "dayend";

/**
 * One day end timer at a time: at start the first day not yet ended (days missed while the server
 * was down come due at once and run in order), and each handler schedules the next day's. Running
 * twice is harmless (the dayends row decides), and the chain goes on even if a day end fails.
 */
export const dayendTimer: TimerModule = {
  kind: DAYEND_TIMER,
  handler: (deps) => async (day, dueAtMs) => {
    if (deps.clock.nowMs() < dueAtMs) {
      deps.timers.schedule(DAYEND_TIMER, day, dueAtMs);
      return;
    }
    try {
      await runDayEnd(deps, day);
    } finally {
      // The next day, or later if the clock jumped further than the catch-up bound.
      const first = await firstDayToEnd(deps.store.q, deps.clock.nowMs());
      const next = addDays(day, 1) > first ? addDays(day, 1) : first;
      deps.timers.schedule(DAYEND_TIMER, next, dayEndDueAtMs(next));
    }
  },
  pending: async (deps) => {
    const day = await firstDayToEnd(deps.store.q, deps.clock.nowMs());
    return [{ key: day, dueAtMs: dayEndDueAtMs(day) }];
  },
};

/**
 * Batches a stopped process left `pending` (formed, not yet answered by the bank) are paid at
 * start; the conditional update records one answer whatever happens.
 */
export const payoutTimer: TimerModule = {
  kind: PAYOUT_TIMER,
  takeoverAfterMs: BANK_TAKEOVER_MS,
  handler: (deps) => async (batchId, dueAtMs) => {
    if (deps.clock.nowMs() < dueAtMs) {
      deps.timers.schedule(PAYOUT_TIMER, batchId, dueAtMs);
      return;
    }
    await payBatch(deps, batchId);
  },
  pending: async (deps) => (await deps.store.q.settlement.pendingBatches()).map((b) => ({ key: b.id, dueAtMs: b.createdAtMs })),
};
