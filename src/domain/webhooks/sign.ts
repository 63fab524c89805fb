/**
 * Webhook signatures and delivery headers (docs/contract.md, Signature / Webhooks).
 *
 * The signature covers the raw body only; the timestamp header is informational and deliberately
 * not signed, because retries must carry the original `occurredAt` and still verify.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Sensitive } from "../../sensitive";

export const SIGNATURE_SCHEME = "sha256=";
export const WEBHOOK_USER_AGENT = "kasa-webhooks/1";
/** Current prefix first; the legacy set stays supported with no removal plan (docs/contract.md, Signature). */
export const HEADER_PREFIXES = ["X-Service-", "X-Legacy-"] as const;

export type WebhookSecret = string | Sensitive<string>;

function revealSecret(secret: WebhookSecret): string {
  return secret instanceof Sensitive ? secret.reveal() : secret;
}

/** `sha256=<lowercase hex HMAC-SHA256 of the raw body>`; the body is hashed as UTF-8 bytes. */
export function signBody(rawBody: string, secret: WebhookSecret): string {
  const hex = createHmac("sha256", revealSecret(secret)).update(rawBody, "utf8").digest("hex");
  return SIGNATURE_SCHEME + hex;
}

/**
 * Constant-time check of a signature header against the raw body. A header of the wrong length
 * is refused before `timingSafeEqual` (which throws on unequal lengths); that early exit leaks only
 * the length, and the length of a valid signature is public anyway.
 */
export function verifySignature(rawBody: string, secret: WebhookSecret, header: string | null | undefined): boolean {
  if (typeof header !== "string") return false;
  const expected = Buffer.from(signBody(rawBody, secret), "utf8");
  const given = Buffer.from(header, "utf8");
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

/** Epoch seconds of `occurredAt` (floor), not of the send time, so it is constant across retries. */
export function toTimestampHeader(occurredAtMs: number): string {
  return String(Math.floor(occurredAtMs / 1000));
}

export interface DeliveryHeadersInput {
  /** The exact bytes that will be sent (as stored with the outbox row). */
  body: string;
  secret: WebhookSecret;
  /** Same as the body's `id`. */
  deliveryId: string;
  occurredAtMs: number;
}

/**
 * Every header of one delivery attempt: both signature sets with identical values, plus content
 * type and user agent. Pure, so the worker can rebuild it for each attempt from the outbox row.
 */
export function deliveryHeaders(input: DeliveryHeadersInput): Record<string, string> {
  const values = {
    Signature: signBody(input.body, input.secret),
    Timestamp: toTimestampHeader(input.occurredAtMs),
    "Delivery-Id": input.deliveryId,
  };
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": WEBHOOK_USER_AGENT,
  };
  for (const prefix of HEADER_PREFIXES) {
    for (const [suffix, value] of Object.entries(values)) headers[prefix + suffix] = value;
  }
  return headers;
}
