/**
 * The webhook outbox on the timer wheel (DESIGN.md request flow 6).
 *
 * "webhook": one timer per delivery attempt, keyed by delivery id. At start every waiting row is
 * scheduled at its `next_attempt_at_ms`, and every row left in flight by a stopped process is
 * resumed (docs/contract.md, Webhooks: deliveries survive restarts).
 *
 * "webhook-sweep": rows queued by ANOTHER process (the CLI's `webhooks resend` and `webhooks test`
 * write to the same database while the server runs) have no timer in this process; every few
 * seconds the sweep hands due pending rows to the wheel. A row the wheel already knows gets a
 * duplicate timer, which the worker ignores. On a database several instances share (docs/postgresql.md)
 * it also resumes the attempts an instance that stopped left in flight, once they are orphaned.
 */
import type { Deps } from "../../deps";
import { WEBHOOK_BATCH_SIZE, WEBHOOK_SWEEP_INTERVAL_MS } from "../../limits";
import type { TimerModule } from "../../timer-module";
import { WEBHOOK_TIMER } from "./outbox";
import { createWebhookWorker, ORPHAN_AFTER_MS } from "./worker";
import type { DeliveryTimerRow } from "../../store/rows";

export const WEBHOOK_SWEEP_TIMER = "webhook-sweep";
const SWEEP_KEY = "outbox";

export const webhookTimerModule: TimerModule = {
  kind: WEBHOOK_TIMER,
  // The sweep below hands over other instances' rows (and their orphans), page by page.
  polled: false,
  handler: (deps) => createWebhookWorker(deps).handle,
  pending: (deps) => pendingDeliveries(deps),
};

export const webhookSweepModule: TimerModule = {
  kind: WEBHOOK_SWEEP_TIMER,
  polled: false,
  handler: (deps) => async (_key, dueAtMs) => {
    const nowMs = deps.clock.nowMs();
    if (nowMs < dueAtMs) return;
    for (const row of await deps.store.q.webhooks.due(nowMs, WEBHOOK_BATCH_SIZE)) deps.timers.schedule(WEBHOOK_TIMER, row.id, row.atMs);
    // docs/postgresql.md: an attempt left in flight by an instance that stopped is resumed by another.
    if (deps.store.shared) {
      for (const row of await deps.store.q.webhooks.inFlightPage("", WEBHOOK_BATCH_SIZE)) {
        if (row.atMs + ORPHAN_AFTER_MS <= nowMs) deps.timers.schedule(WEBHOOK_TIMER, row.id, row.atMs + ORPHAN_AFTER_MS);
      }
    }
    deps.timers.schedule(WEBHOOK_SWEEP_TIMER, SWEEP_KEY, nowMs + WEBHOOK_SWEEP_INTERVAL_MS);
  },
  pending: (deps) => [{ key: SWEEP_KEY, dueAtMs: deps.clock.nowMs() + WEBHOOK_SWEEP_INTERVAL_MS }],
};

/** Reads the outbox in pages of WEBHOOK_BATCH_SIZE, so the rebuild never holds one huge result. */
async function* pendingDeliveries(deps: Pick<Deps, "store">): AsyncIterable<{ key: string; dueAtMs: number }> {
  const q = deps.store.q.webhooks;
  let page: DeliveryTimerRow[];
  let after = { atMs: Number.MIN_SAFE_INTEGER, id: "" };
  do {
    page = await q.waitingPage(after.atMs, after.id, WEBHOOK_BATCH_SIZE);
    for (const row of page) yield { key: row.id, dueAtMs: row.atMs };
    after = page.at(-1) ?? after;
  } while (page.length === WEBHOOK_BATCH_SIZE);
  let afterId = "";
  do {
    page = await q.inFlightPage(afterId, WEBHOOK_BATCH_SIZE);
    // Resumed once the stopped process's attempt has surely ended (see ORPHAN_AFTER_MS).
    for (const row of page) yield { key: row.id, dueAtMs: row.atMs + ORPHAN_AFTER_MS };
    afterId = page.at(-1)?.id ?? afterId;
  } while (page.length === WEBHOOK_BATCH_SIZE);
}
