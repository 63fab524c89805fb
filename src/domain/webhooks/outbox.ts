import type { Ids } from "../../ids";
import type { Repos } from "../../store/store";
import type { Timers } from "../../timers";
import { buildEventBody, type WebhookEventType } from "./events";

export const WEBHOOK_TIMER = "webhook";

export type OutboxEvent =
  | { type: "payment.captured" | "payment.failed" | "payment.expired" | "refund.approved" | "refund.declined"; paymentCode: string }
  | { type: "payment_link.completed" | "payment_link.expired"; paymentLinkId: string }
  | { type: "payout.paid_out" | "payout.failed"; payoutBatchId: string }
  | { type: "webhook.test" };

/**
 * Queues a thin webhook inside the caller's unit of work (docs/contract.md, Webhooks: the outbox row commits with
 * the state change). Nothing is queued when the partner has no webhook URL (docs/contract.md, Webhooks). The
 * timer is scheduled now; it fires after the batch committed, and a rolled-back unit leaves a
 * timer that finds no row and does nothing.
 */
export async function enqueueWebhook(
  tx: Repos,
  deps: { ids: Ids; timers: Pick<Timers, "schedule"> },
  partnerId: string,
  event: OutboxEvent,
  nowMs: number,
): Promise<string | null> {
  const partner = await tx.partners.get(partnerId);
  if (!partner?.webhookUrl) return null;
  const id = deps.ids.deliveryId();
  const type: WebhookEventType = event.type;
  const body = buildEventBody({
    ...event,
    ...(event.type.startsWith("payout.") ? { partnerId } : {}),
    id,
    type,
    occurredAtMs: nowMs,
  });
  await tx.webhooks.insert({ id, partnerId, type, body, occurredAtMs: nowMs });
  deps.timers.schedule(WEBHOOK_TIMER, id, nowMs);
  return id;
}
