/**
 * Webhook event types and their thin JSON bodies (docs/contract.md, Event types / Bodies).
 *
 * A webhook is only a trigger: the body names what changed and the receiver fetches the
 * authoritative state by query. That is why the body builder accepts identifiers only; there is no
 * field through which an amount, a bank response or card data could reach a partner.
 */

export type WebhookEventFamily = "transaction" | "payout" | "payment_link" | "test";

/** docs/contract.md, Event types, row by row: event type -> family. */
export const WEBHOOK_EVENT_FAMILIES = {
  "payment.captured": "transaction",
  "payment.failed": "transaction",
  "payment.expired": "transaction",
  "refund.approved": "transaction",
  "refund.declined": "transaction",
  "payout.paid_out": "payout",
  "payout.failed": "payout",
  "payment_link.completed": "payment_link",
  "payment_link.expired": "payment_link",
  "webhook.test": "test",
} as const satisfies Record<string, WebhookEventFamily>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_FAMILIES;

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENT_FAMILIES) as WebhookEventType[];

type ExtraField = "paymentCode" | "paymentLinkId" | "payoutBatchId" | "partnerId";

/** docs/contract.md, Bodies: the extra body fields of each family, in the order they are written. */
export const FAMILY_FIELDS = {
  transaction: ["paymentCode"],
  payout: ["payoutBatchId", "partnerId"],
  payment_link: ["paymentLinkId"],
  test: [],
} as const satisfies Record<WebhookEventFamily, readonly ExtraField[]>;

const ALL_EXTRA_FIELDS: readonly ExtraField[] = ["paymentCode", "paymentLinkId", "payoutBatchId", "partnerId"];

// The largest instant Date#toISOString still renders as a four-digit year; later instants would
// come out as "+010000-…", which is not the date-time format receivers expect.
const MAX_ISO_INSTANT_MS = 253_402_300_799_999;

export interface WebhookEventInput {
  /** Delivery id (`evt_…`); receivers deduplicate on it, so it must be stable across retries. */
  id: string;
  type: WebhookEventType;
  occurredAtMs: number;
  paymentCode?: string;
  paymentLinkId?: string;
  payoutBatchId?: string;
  partnerId?: string;
}

/** The wire shape of a body: common fields first, then the family's extras. */
export type WebhookEventJson = { id: string; type: WebhookEventType; occurredAt: string } & Partial<Record<ExtraField, string>>;

/**
 * Thrown when a caller asks for a body that docs/contract.md#bodies does not allow. It is always our bug
 * (a domain function queued the wrong event), never a partner's error, so it carries no catalog code.
 */
export class WebhookEventError extends Error {
  override readonly name = "WebhookEventError";
}

export function isWebhookEventType(value: string): value is WebhookEventType {
  return Object.hasOwn(WEBHOOK_EVENT_FAMILIES, value);
}

export function webhookEventFamily(type: WebhookEventType): WebhookEventFamily {
  return WEBHOOK_EVENT_FAMILIES[type];
}

/** ISO 8601 UTC with milliseconds and `Z`, e.g. `2025-03-01T09:30:00.000Z`. */
export function toOccurredAt(occurredAtMs: number): string {
  if (!Number.isSafeInteger(occurredAtMs) || occurredAtMs < 0 || occurredAtMs > MAX_ISO_INSTANT_MS) {
    throw new WebhookEventError(`occurredAtMs must be an integer epoch ms, got ${occurredAtMs}`);
  }
  return new Date(occurredAtMs).toISOString();
}

function requireText(value: unknown, field: string, type: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new WebhookEventError(`${type} needs a non-empty ${field}`);
  }
  return value;
}

/** Builds the body object; `buildEventBody` is the one that fixes the bytes. */
export function toEventJson(input: WebhookEventInput): WebhookEventJson {
  const type = input.type as string;
  if (!isWebhookEventType(type)) throw new WebhookEventError(`unknown webhook event type ${JSON.stringify(type)}`);
  const family = WEBHOOK_EVENT_FAMILIES[type];
  const allowed: readonly ExtraField[] = FAMILY_FIELDS[family];
  const json: WebhookEventJson = {
    id: requireText(input.id, "id", type),
    type,
    occurredAt: toOccurredAt(input.occurredAtMs),
  };
  for (const field of allowed) json[field] = requireText(input[field], field, type);
  // A stray identifier is refused rather than dropped: it means the caller mixed up families
  // (e.g. a payout event carrying a paymentCode), which 6.2 explicitly rules out.
  for (const field of ALL_EXTRA_FIELDS) {
    if (!allowed.includes(field) && input[field] !== undefined) {
      throw new WebhookEventError(`${type} (${family} family) must not carry ${field}`);
    }
  }
  return json;
}

/**
 * The exact body string per docs/contract.md, Bodies. The outbox stores these bytes and every attempt sends
 * them unchanged (docs/contract.md, Webhooks), so the signature stays valid across retries.
 */
export function buildEventBody(input: WebhookEventInput): string {
  return JSON.stringify(toEventJson(input));
}
