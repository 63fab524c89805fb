import type { Db } from "./db-types";
import type { TailAttempt, TailDelivery } from "../rows";

// `kasa webhooks tail` (docs/contract.md, The sandbox): what appeared in the outbox since an instant, read by another
// process while the server writes: deliveries by creation time, attempts by start time. Rows do not
// become visible in time order (an attempt's row is written when it ends; ids in one millisecond
// are random), so the reader re-reads a trailing window and drops what it printed. By index.

const PARTNER = "(? IS NULL OR d.partner_id = ?)";

export function webhookTailSql(db: Db) {
  return {
    /** The newest delivery and attempt instants already there: where a tail starting now begins. */
    tailStart: () => ({
      deliveryMs: db.prepare("SELECT MAX(created_at_ms) AS ms FROM webhook_deliveries").get<{ ms: number | null }>()?.ms ?? 0,
      attemptMs: db.prepare("SELECT MAX(started_at_ms) AS ms FROM webhook_attempts").get<{ ms: number | null }>()?.ms ?? 0,
    }),
    /** Deliveries after (atMs, key) in (created_at_ms, id) order: a page of a keyset walk. */
    deliveriesAfter: (atMs: number, key: string, partnerId: string | null, limit: number) =>
      db
        .prepare(
          `SELECT d.id, d.partner_id AS partnerId, d.type, d.created_at_ms AS createdAtMs FROM webhook_deliveries d
           WHERE (d.created_at_ms > ? OR (d.created_at_ms = ? AND d.id > ?)) AND ${PARTNER} ORDER BY d.created_at_ms, d.id LIMIT ?`,
        )
        .all<TailDelivery>(atMs, atMs, key, partnerId, partnerId, limit),
    /** Attempts after (atMs, key) in (started_at_ms, delivery_id || '#' || n) order. */
    attemptsAfter: (atMs: number, key: string, partnerId: string | null, limit: number) =>
      db
        .prepare(
          `SELECT * FROM (SELECT a.delivery_id AS deliveryId, d.partner_id AS partnerId, d.type, a.n, a.started_at_ms AS startedAtMs,
             a.outcome, a.http_status AS httpStatus, a.latency_ms AS latencyMs, a.error, a.delivery_id || '#' || a.n AS tailKey
           FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
           WHERE a.started_at_ms >= ? AND ${PARTNER})
           WHERE startedAtMs > ? OR tailKey > ? ORDER BY startedAtMs, tailKey LIMIT ?`,
        )
        .all<TailAttempt & { tailKey: string }>(atMs, partnerId, partnerId, atMs, key, limit),
  };
}
