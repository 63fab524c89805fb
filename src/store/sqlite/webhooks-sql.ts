import type { Db } from "./db-types";
import type { DeliveryFilter, DeliveryListRow, DeliveryRow, DeliveryStatus, DeliveryTimerRow, WebhookAttemptRow } from "../rows";

const DELIVERY_COLUMNS = `id, partner_id AS partnerId, type, body, occurred_at_ms AS occurredAtMs, status, attempts,
  next_attempt_at_ms AS nextAttemptAtMs, first_attempt_at_ms AS firstAttemptAtMs, created_at_ms AS createdAtMs,
  updated_at_ms AS updatedAtMs`;

const ATTEMPT_COLUMNS = `delivery_id AS deliveryId, n, started_at_ms AS startedAtMs, http_status AS httpStatus,
  latency_ms AS latencyMs, outcome, error`;

// Every transition of an attempt in flight is conditional on still being in flight, so a record
// that arrives after someone else settled the row changes nothing (DESIGN.md: conditional updates).
const IN_FLIGHT = "status = 'pending' AND next_attempt_at_ms IS NULL";

export function webhooksSql(db: Db) {
  return {
    /** The outbox row, written in the same unit of work as the state change it reports (docs/contract.md, Webhooks). */
    insert(d: Pick<DeliveryRow, "id" | "partnerId" | "type" | "body" | "occurredAtMs">): void {
      db.prepare(
        `INSERT INTO webhook_deliveries (id, partner_id, type, body, occurred_at_ms, status, attempts, next_attempt_at_ms,
           first_attempt_at_ms, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, ?)`,
      ).run(d.id, d.partnerId, d.type, d.body, d.occurredAtMs, d.occurredAtMs, d.occurredAtMs, d.occurredAtMs);
    },
    get: (id: string) => db.prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`).get<DeliveryRow>(id),

    /** Newest first (by creation, then id), optionally one partner and/or one status. */
    list(f: DeliveryFilter): DeliveryListRow[] {
      return db
        .prepare(
          `SELECT ${DELIVERY_COLUMNS},
             (SELECT COUNT(*) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attemptCount
           FROM webhook_deliveries d
           WHERE (? IS NULL OR partner_id = ?) AND (? IS NULL OR status = ?)
           ORDER BY created_at_ms DESC, id DESC LIMIT ?`,
        )
        .all<DeliveryListRow>(f.partnerId, f.partnerId, f.status, f.status, f.limit);
    },
    attempts: (deliveryId: string) =>
      db.prepare(`SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id = ? ORDER BY n`).all<WebhookAttemptRow>(deliveryId),

    /** Waiting deliveries in due order after (atMs, id), one page at a time (start-up rebuild). */
    waitingPage: (afterAtMs: number, afterId: string, limit: number) =>
      db
        .prepare(
          `SELECT id, next_attempt_at_ms AS atMs FROM webhook_deliveries
           WHERE status = 'pending' AND next_attempt_at_ms IS NOT NULL AND (next_attempt_at_ms, id) > (?, ?)
           ORDER BY next_attempt_at_ms, id LIMIT ?`,
        )
        .all<DeliveryTimerRow>(afterAtMs, afterId, limit),
    /** Deliveries whose attempt was claimed but never recorded, after `afterId` (start-up rebuild). */
    inFlightPage: (afterId: string, limit: number) =>
      db
        .prepare(`SELECT id, updated_at_ms AS atMs FROM webhook_deliveries WHERE ${IN_FLIGHT} AND id > ? ORDER BY id LIMIT ?`)
        .all<DeliveryTimerRow>(afterId, limit),
    /** Waiting deliveries already due; the sweep hands them to the wheel (rows queued by another process). */
    due: (nowMs: number, limit: number) =>
      db
        .prepare(
          `SELECT id, next_attempt_at_ms AS atMs FROM webhook_deliveries
           WHERE status = 'pending' AND next_attempt_at_ms <= ? ORDER BY next_attempt_at_ms, id LIMIT ?`,
        )
        .all<DeliveryTimerRow>(nowMs, limit),

    /** Takes a waiting delivery for one attempt: counts it, opens the window, marks it in flight. */
    claim(id: string, expectedNextAtMs: number, nowMs: number): boolean {
      return (
        db
          .prepare(
            `UPDATE webhook_deliveries SET attempts = attempts + 1, first_attempt_at_ms = COALESCE(first_attempt_at_ms, ?),
               next_attempt_at_ms = NULL, updated_at_ms = ?
             WHERE id = ? AND status = 'pending' AND next_attempt_at_ms = ?`,
          )
          .run(nowMs, nowMs, id, expectedNextAtMs).changes === 1
      );
    },
    /**
     * Takes over an attempt left in flight by a stopped process. The attempt is the same one (it was
     * never recorded), so the count stays; `updated_at_ms` is the compare-and-set token.
     */
    claimOrphan(id: string, expectedUpdatedAtMs: number, nowMs: number): boolean {
      return (
        db
          .prepare(`UPDATE webhook_deliveries SET updated_at_ms = ? WHERE id = ? AND ${IN_FLIGHT} AND updated_at_ms = ?`)
          .run(nowMs, id, expectedUpdatedAtMs).changes === 1
      );
    },
    /** An attempt picked up after the 24 h window is dropped without being sent. */
    dropUnsent(id: string, expectedNextAtMs: number | null, nowMs: number): boolean {
      return (
        db
          .prepare(
            `UPDATE webhook_deliveries SET status = 'dropped', next_attempt_at_ms = NULL, updated_at_ms = ?
             WHERE id = ? AND status = 'pending' AND next_attempt_at_ms IS ?`,
          )
          .run(nowMs, id, expectedNextAtMs).changes === 1
      );
    },
    /** Numbers the attempt after every earlier one of the delivery (all cycles) and stores it. */
    insertAttempt(a: Omit<WebhookAttemptRow, "n">): number {
      const last = db
        .prepare("SELECT COALESCE(MAX(n), 0) AS n FROM webhook_attempts WHERE delivery_id = ?")
        .get<{ n: number }>(a.deliveryId);
      const n = (last?.n ?? 0) + 1;
      db.prepare(
        `INSERT INTO webhook_attempts (delivery_id, n, started_at_ms, http_status, latency_ms, outcome, error)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(a.deliveryId, n, a.startedAtMs, a.httpStatus, a.latencyMs, a.outcome, a.error);
      return n;
    },
    /** The attempt in flight ended the delivery. */
    settle(id: string, status: Exclude<DeliveryStatus, "pending">, nowMs: number): boolean {
      return (
        db.prepare(`UPDATE webhook_deliveries SET status = ?, updated_at_ms = ? WHERE id = ? AND ${IN_FLIGHT}`).run(status, nowMs, id)
          .changes === 1
      );
    },
    /** The attempt in flight failed retryably: wait for the next one. */
    reschedule(id: string, nextAtMs: number, nowMs: number): boolean {
      return (
        db
          .prepare(`UPDATE webhook_deliveries SET next_attempt_at_ms = ?, updated_at_ms = ? WHERE id = ? AND ${IN_FLIGHT}`)
          .run(nextAtMs, nowMs, id).changes === 1
      );
    },
    /** Operator resend: a settled delivery starts a new cycle, due now. */
    requeue(id: string, nowMs: number): boolean {
      return (
        db
          .prepare(
            `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, first_attempt_at_ms = NULL,
               next_attempt_at_ms = ?, updated_at_ms = ?
             WHERE id = ? AND status IN ('delivered', 'failed', 'dropped')`,
          )
          .run(nowMs, nowMs, id).changes === 1
      );
    },
  };
}
