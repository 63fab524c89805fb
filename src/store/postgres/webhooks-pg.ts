import type { WebhooksOps } from "../links-ops";
import type { DeliveryListRow, DeliveryRow, DeliveryTimerRow, WebhookAttemptRow } from "../rows";
import type { Pg } from "./pg";

// The webhook outbox on PostgreSQL (issue 23): the same answers as sqlite/webhooks-sql.ts. Every
// transition is one conditional UPDATE, so a record that arrives after someone else settled the
// row changes nothing, here as there (READ COMMITTED re-checks the WHERE after a row lock wait).

const DELIVERY_COLUMNS = `id, partner_id AS "partnerId", type, body, occurred_at_ms AS "occurredAtMs", status, attempts,
  next_attempt_at_ms AS "nextAttemptAtMs", first_attempt_at_ms AS "firstAttemptAtMs", created_at_ms AS "createdAtMs",
  updated_at_ms AS "updatedAtMs"`;

const ATTEMPT_COLUMNS = `delivery_id AS "deliveryId", n, started_at_ms AS "startedAtMs", http_status AS "httpStatus",
  latency_ms AS "latencyMs", outcome, error`;

/** An attempt in flight: claimed, not yet recorded. A fixed fragment, never a value. */
const IN_FLIGHT = "status = 'pending' AND next_attempt_at_ms IS NULL";

export function webhooksPg(sql: Pg): WebhooksOps {
  const cols = sql.unsafe(DELIVERY_COLUMNS);
  const inFlight = sql.unsafe(IN_FLIGHT);
  return {
    async insert(d) {
      await sql`INSERT INTO webhook_deliveries (id, partner_id, type, body, occurred_at_ms, status, attempts, next_attempt_at_ms,
          first_attempt_at_ms, created_at_ms, updated_at_ms)
        VALUES (${d.id}, ${d.partnerId}, ${d.type}, ${d.body}, ${d.occurredAtMs}, 'pending', 0, ${d.occurredAtMs}, NULL,
          ${d.occurredAtMs}, ${d.occurredAtMs})`;
    },
    get: async (id) => (await sql<DeliveryRow[]>`SELECT ${cols} FROM webhook_deliveries WHERE id = ${id}`)[0],
    // SQLite writes `(? IS NULL OR partner_id = ?)`; an untyped null parameter has no type in
    // PostgreSQL, so an absent filter adds no term instead (the same rows).
    list: async (f) => [
      ...(await sql<DeliveryListRow[]>`SELECT ${cols},
          (SELECT COUNT(*) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS "attemptCount"
        FROM webhook_deliveries d WHERE true
        ${f.partnerId !== null ? sql`AND partner_id = ${f.partnerId}` : sql``}
        ${f.status !== null ? sql`AND status = ${f.status}` : sql``}
        ORDER BY created_at_ms DESC, id DESC LIMIT ${f.limit}`),
    ],
    attempts: async (deliveryId) => [
      ...(await sql<WebhookAttemptRow[]>`SELECT ${sql.unsafe(ATTEMPT_COLUMNS)} FROM webhook_attempts
        WHERE delivery_id = ${deliveryId} ORDER BY n`),
    ],
    waitingPage: async (afterAtMs, afterId, limit) => [
      ...(await sql<DeliveryTimerRow[]>`SELECT id, next_attempt_at_ms AS "atMs" FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at_ms IS NOT NULL AND (next_attempt_at_ms, id) > (${afterAtMs}, ${afterId})
        ORDER BY next_attempt_at_ms, id LIMIT ${limit}`),
    ],
    inFlightPage: async (afterId, limit) => [
      ...(await sql<DeliveryTimerRow[]>`SELECT id, updated_at_ms AS "atMs" FROM webhook_deliveries
        WHERE ${inFlight} AND id > ${afterId} ORDER BY id LIMIT ${limit}`),
    ],
    due: async (nowMs, limit) => [
      ...(await sql<DeliveryTimerRow[]>`SELECT id, next_attempt_at_ms AS "atMs" FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at_ms <= ${nowMs} ORDER BY next_attempt_at_ms, id LIMIT ${limit}`),
    ],
    // docs/postgresql.md: claimed with FOR UPDATE SKIP LOCKED: of instances claiming one due row at once,
    // one locks and takes it, the others skip it at once instead of waiting to find it taken.
    async claim(id, expectedNextAtMs, nowMs) {
      const r = await sql`UPDATE webhook_deliveries SET attempts = attempts + 1,
          first_attempt_at_ms = COALESCE(first_attempt_at_ms, ${nowMs}), next_attempt_at_ms = NULL, updated_at_ms = ${nowMs}
        WHERE id = (SELECT id FROM webhook_deliveries
          WHERE id = ${id} AND status = 'pending' AND next_attempt_at_ms = ${expectedNextAtMs} FOR UPDATE SKIP LOCKED)`;
      return r.count === 1;
    },
    async claimOrphan(id, expectedUpdatedAtMs, nowMs) {
      const r = await sql`UPDATE webhook_deliveries SET updated_at_ms = ${nowMs}
        WHERE id = (SELECT id FROM webhook_deliveries
          WHERE id = ${id} AND ${inFlight} AND updated_at_ms = ${expectedUpdatedAtMs} FOR UPDATE SKIP LOCKED)`;
      return r.count === 1;
    },
    // SQLite's `next_attempt_at_ms IS ?` matches a null expectation too: IS NOT DISTINCT FROM.
    async dropUnsent(id, expectedNextAtMs, nowMs) {
      const r = await sql`UPDATE webhook_deliveries SET status = 'dropped', next_attempt_at_ms = NULL, updated_at_ms = ${nowMs}
        WHERE id = ${id} AND status = 'pending' AND next_attempt_at_ms IS NOT DISTINCT FROM ${expectedNextAtMs}`;
      return r.count === 1;
    },
    // SQLite reads MAX(n) and inserts under its single writer. Here the delivery's row is locked
    // first (FOR UPDATE), so two transactions numbering attempts of one delivery take turns and
    // never pick the same n; the numbering and the insert are then one statement.
    async insertAttempt(a) {
      await sql`SELECT 1 FROM webhook_deliveries WHERE id = ${a.deliveryId} FOR UPDATE`;
      const [r] = await sql<{ n: number }[]>`INSERT INTO webhook_attempts
          (delivery_id, n, started_at_ms, http_status, latency_ms, outcome, error)
        SELECT ${a.deliveryId}, COALESCE(MAX(n), 0) + 1, ${a.startedAtMs}, ${a.httpStatus}, ${a.latencyMs}, ${a.outcome}, ${a.error}
        FROM webhook_attempts WHERE delivery_id = ${a.deliveryId}
        RETURNING n`;
      return r!.n;
    },
    async settle(id, status, nowMs) {
      const r = await sql`UPDATE webhook_deliveries SET status = ${status}, updated_at_ms = ${nowMs} WHERE id = ${id} AND ${inFlight}`;
      return r.count === 1;
    },
    async reschedule(id, nextAtMs, nowMs) {
      const r = await sql`UPDATE webhook_deliveries SET next_attempt_at_ms = ${nextAtMs}, updated_at_ms = ${nowMs}
        WHERE id = ${id} AND ${inFlight}`;
      return r.count === 1;
    },
    async requeue(id, nowMs) {
      const r = await sql`UPDATE webhook_deliveries SET status = 'pending', attempts = 0, first_attempt_at_ms = NULL,
          next_attempt_at_ms = ${nowMs}, updated_at_ms = ${nowMs}
        WHERE id = ${id} AND status IN ('delivered', 'failed', 'dropped')`;
      return r.count === 1;
    },
  };
}
