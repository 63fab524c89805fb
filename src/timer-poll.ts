import type { Deps } from "./deps";
import { TIMER_BATCH_SIZE, TIMER_POLL_INTERVAL_MS } from "./limits";
import type { TimerModule } from "./timer-module";
import type { PendingTimer } from "./timers";

/**
 * docs/postgresql.md: on a database other kasa instances write to (PostgreSQL), each instance keeps its
 * own timer heap as the fast path and, every TIMER_POLL_INTERVAL_MS, asks the database for due rows
 * it did not schedule: a payment another instance created, a refund left by an instance that
 * stopped. Handlers re-check their row and every transition is conditional (or claimed, webhooks),
 * so a row two instances both fire changes once. A kind whose handler talks to the bank waits
 * `takeoverAfterMs` past the due instant before another instance takes it, so an instance that is
 * still waiting for the bank's answer is not joined by a second question.
 *
 * A bank follow-up this instance already has scheduled or running is never handed over again
 * (Timers.holds), so a clock that jumps past the takeover time (the sandbox) asks the bank once.
 * A due row is handed to the heap once per (kind, key, due instant): a payout waiting for an
 * operator's transfer is not fired again every few seconds, and a row whose due instant moved
 * (a new question scheduled) is handed over again. Kinds whose pending rows can be many (open
 * links, initiated payments) answer only their due rows, TIMER_BATCH_SIZE at a time (`due`).
 *
 * `beforePoll` runs first: a sandbox follows another instance's clock move (its offset lives in
 * the database) before looking for what that move made due.
 */
export const TIMER_POLL = "timer-poll";
const KEY = "database";

export function timerPollModule(modules: () => TimerModule[], beforePoll: (deps: Deps) => Promise<void> = async () => {}): TimerModule {
  return {
    kind: TIMER_POLL,
    polled: false,
    handler: (deps) => {
      let handed = new Set<string>();
      return async (_key, dueAtMs) => {
        if (deps.clock.nowMs() < dueAtMs) return deps.timers.schedule(TIMER_POLL, KEY, dueAtMs);
        try {
          await beforePoll(deps);
          const nowMs = deps.clock.nowMs();
          const next = new Set<string>();
          for (const m of modules()) {
            if (m.polled === false) continue;
            const after = m.takeoverAfterMs ?? 0;
            const rows = m.due ? await m.due(deps, nowMs - after, TIMER_BATCH_SIZE) : await collect(m.pending(deps));
            for (const t of rows) {
              if (t.dueAtMs + after > nowMs) continue;
              const id = `${m.kind}\u0000${t.key}\u0000${t.dueAtMs}`;
              next.add(id);
              if (!handed.has(id) && !deps.timers.holds(m.kind, t.key)) deps.timers.schedule(m.kind, t.key, t.dueAtMs + after);
            }
          }
          handed = next;
        } finally {
          deps.timers.schedule(TIMER_POLL, KEY, deps.clock.nowMs() + TIMER_POLL_INTERVAL_MS);
        }
      };
    },
    pending: (deps) => (deps.store.shared ? [{ key: KEY, dueAtMs: deps.clock.nowMs() + TIMER_POLL_INTERVAL_MS }] : []),
  };
}

async function collect(source: ReturnType<TimerModule["pending"]>): Promise<PendingTimer[]> {
  const timers = await source;
  if (!(Symbol.asyncIterator in timers)) return [...timers];
  const out: PendingTimer[] = [];
  for await (const t of timers) out.push(t);
  return out;
}

/**
 * What a kind schedules at start. On a shared database another instance may be in the middle of
 * a bank follow-up this one finds due, so those wait their takeover time, as the poll's do; on
 * SQLite nothing else runs them and they are due at once.
 */
export function startupTimers(m: TimerModule, deps: Deps): ReturnType<TimerModule["pending"]> {
  const after = m.takeoverAfterMs ?? 0;
  if (!deps.store.shared || after === 0) return m.pending(deps);
  return collect(m.pending(deps)).then((timers) => timers.map((t) => ({ key: t.key, dueAtMs: t.dueAtMs + after })));
}
