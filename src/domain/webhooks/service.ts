/**
 * Operator functions of the webhook outbox (docs/contract.md, Webhooks; docs/operating.md, The operator CLI: `kasa webhooks list|show|resend|test`).
 *
 * They only read and write the outbox; the sending is always done by a server's worker. Called
 * from the CLI (another process, no timer wheel) the queued row is found by the server's sweep
 * within WEBHOOK_SWEEP_INTERVAL_MS, or at its next start; called inside a runtime, `timers` puts
 * it on the wheel at once.
 */
import type { Clock } from "../../clock";
import type { Ids } from "../../ids";
import { LIST_SIZE_DEFAULT, LIST_SIZE_MAX, LIST_SIZE_MIN } from "../../limits";
import type { Repos } from "../../store/store";
import type { Store } from "../../store/store";
import type { Timers } from "../../timers";
import { enqueueWebhook, WEBHOOK_TIMER } from "./outbox";
import { toAttemptJson, toDeliveryJson, type AttemptJson, type DeliveryJson } from "./view";
import type { DeliveryStatus } from "../../store/rows";

export type OperatorDeps = { store: Store; clock: Clock; ids: Ids; timers?: Pick<Timers, "schedule"> };

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "delivered", "failed", "dropped"];

/** An operator's mistake (unknown id, wrong state); the CLI prints the message as one line. */
export class WebhookOperatorError extends Error {
  override name = "WebhookOperatorError";
}

export type ListFilter = { partnerId?: string | null; status?: string | null; limit?: number | null };

/** Newest first; at most LIST_SIZE_MAX rows (default LIST_SIZE_DEFAULT). */
export async function listDeliveries(q: Repos, filter: ListFilter = {}): Promise<DeliveryJson[]> {
  const status = filter.status ?? null;
  if (status !== null && !DELIVERY_STATUSES.includes(status as DeliveryStatus)) {
    throw new WebhookOperatorError(`status: must be one of ${DELIVERY_STATUSES.join(", ")}`);
  }
  const limit = filter.limit ?? LIST_SIZE_DEFAULT;
  if (!Number.isSafeInteger(limit) || limit < LIST_SIZE_MIN || limit > LIST_SIZE_MAX) {
    throw new WebhookOperatorError(`limit: must be an integer from ${LIST_SIZE_MIN} to ${LIST_SIZE_MAX}`);
  }
  return (await q.webhooks.list({ partnerId: filter.partnerId ?? null, status: status as DeliveryStatus | null, limit })).map((row) =>
    toDeliveryJson(row, row.attemptCount),
  );
}

export type DeliveryDetail = DeliveryJson & { body: string; history: AttemptJson[] };

/** One delivery with the exact body bytes and every attempt (status, latency, error). */
export async function showDelivery(q: Repos, id: string): Promise<DeliveryDetail> {
  const row = await q.webhooks.get(id);
  if (!row) throw new WebhookOperatorError(`delivery ${id} not found`);
  const attempts = await q.webhooks.attempts(id);
  return { ...toDeliveryJson(row, attempts.length), body: row.body, history: attempts.map(toAttemptJson) };
}

/**
 * Sends a settled delivery again: the SAME row and id (docs/contract.md, Signature: the delivery id is stable,
 * and receivers that already processed it acknowledge without reprocessing), the same body bytes
 * and timestamp, due now. It starts a new cycle (retry schedule and 24 h window from its first
 * attempt); attempt numbers continue after the earlier ones. A pending delivery is refused: it is
 * already queued.
 */
export async function resendDelivery(deps: OperatorDeps, id: string): Promise<DeliveryDetail> {
  const nowMs = deps.clock.nowMs();
  await deps.store.write(async (tx) => {
    const row = await tx.webhooks.get(id);
    if (!row) throw new WebhookOperatorError(`delivery ${id} not found`);
    if (!(await tx.webhooks.requeue(id, nowMs))) throw new WebhookOperatorError(`delivery ${id} is still pending`);
    deps.timers?.schedule(WEBHOOK_TIMER, id, nowMs);
  });
  return await showDelivery(deps.store.q, id);
}

/** Queues `webhook.test` for a partner (the panel's send-test action, docs/contract.md, Event types). */
export async function sendTestWebhook(deps: OperatorDeps, partnerId: string): Promise<DeliveryDetail> {
  const nowMs = deps.clock.nowMs();
  const scheduler = deps.timers ?? { schedule: () => {} };
  const id = await deps.store.write(async (tx) => {
    const partner = await tx.partners.get(partnerId);
    if (!partner) throw new WebhookOperatorError(`partner ${partnerId} not found`);
    const queued = await enqueueWebhook(tx, { ids: deps.ids, timers: scheduler }, partnerId, { type: "webhook.test" }, nowMs);
    if (queued === null) throw new WebhookOperatorError(`partner ${partnerId} has no webhook url`);
    return queued;
  });
  return await showDelivery(deps.store.q, id);
}
