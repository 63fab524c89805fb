import type { Deps } from "../../deps";
import { DAY_MS, MINUTE_MS } from "../../limits";
import type { TimerModule } from "../../timer-module";
import { addDays, istanbulDate, istanbulDateStartMs } from "../checks/istanbul-time";
import { reconcile, runConnections } from "./service";

// The daily run (docs/reconciliation.md): at `--reconcile-at` Istanbul time (06:00 by default in
// `serve`; off in the sandbox unless asked, and then on the sandbox clock) every connection whose
// bank is not simulated is reconciled for the previous day. One timer at a time, key = the day it
// reconciles; each run schedules the next day's. A server that was down at that hour runs it a
// minute after it starts, once: after a long gap (or a sandbox clock moved days ahead) only the
// latest ended day is run.

/** Timer kind of the daily run; key = the Istanbul date it reconciles. */
export const RECONCILE_TIMER = "reconcile";

/** `--reconcile-at HH:MM` -> minutes after Istanbul midnight; `off` -> null; anything else throws RangeError. */
export function parseReconcileAt(text: string): number | null {
  if (text === "off") return null;
  const m = /^([01][0-9]|2[0-3]):([0-5][0-9])$/.exec(text);
  if (!m) throw new RangeError(`--reconcile-at: must be HH:MM (00:00-23:59) or off, got ${JSON.stringify(text)}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** A run missed while the server was down waits this long after the start: the banner and the first requests come first. */
const MISSED_RUN_DELAY_MS = MINUTE_MS;

/** When the run of `day` is due: the next day at the configured minute, Istanbul time. */
const dueAtOf = (day: string, atMinutes: number): number => istanbulDateStartMs(day) + DAY_MS + atMinutes * MINUTE_MS;

/** The day the next run reconciles at `nowMs`: yesterday's if its hour has not come today (or it never ran), else today's. */
async function nextDay(deps: Deps, atMinutes: number, nowMs: number): Promise<string> {
  const yesterday = addDays(istanbulDate(nowMs), -1);
  if (nowMs < dueAtOf(yesterday, atMinutes)) return yesterday;
  const ran = (await deps.store.q.reconcile.runs(null, 1000)).some((r) => r.day === yesterday);
  return ran ? istanbulDate(nowMs) : yesterday;
}

export const reconcileTimer: TimerModule = {
  kind: RECONCILE_TIMER,
  // Each instance keeps its own daily timer; the lease keeps their runs of one connection apart,
  // and the one that waited finds the day run since its due time and leaves it.
  polled: false,
  handler: (deps) => async (day, dueAtMs) => {
    const at = deps.config.reconcileAt;
    if (at === undefined || at === null) return;
    if (deps.clock.nowMs() < dueAtMs) {
      deps.timers.schedule(RECONCILE_TIMER, day, dueAtMs);
      return;
    }
    try {
      const results = await reconcile(deps, await runConnections(deps, undefined), day, dueAtMs);
      deps.log.info("reconciliation: the daily run finished", { date: day, runs: results.map((r) => r.run.id) });
    } catch (error) {
      deps.log.error("reconciliation: the daily run failed; the next day's runs as planned", { date: day, error });
    } finally {
      const latest = addDays(istanbulDate(deps.clock.nowMs()), -1);
      const next = addDays(day, 1) > latest ? addDays(day, 1) : latest;
      deps.timers.schedule(RECONCILE_TIMER, next, dueAtOf(next, at));
    }
  },
  pending: async (deps) => {
    const at = deps.config.reconcileAt;
    if (at === undefined || at === null) return [];
    const nowMs = deps.clock.nowMs();
    const day = await nextDay(deps, at, nowMs);
    return [{ key: day, dueAtMs: Math.max(dueAtOf(day, at), nowMs + MISSED_RUN_DELAY_MS) }];
  },
};
