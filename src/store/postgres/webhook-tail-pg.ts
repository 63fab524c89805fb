import type { WebhookTailOps } from "../links-ops";
import type { TailAttempt, TailDelivery } from "../rows";
import type { Pg } from "./pg";

// `kasa webhooks tail` (docs/contract.md, The sandbox) on PostgreSQL (issue 23): the same pages as
// sqlite/webhook-tail-sql.ts, by the indexes deliveries_by_created and attempts_by_start. The
// optional partner is a fragment added or left out: an untyped null parameter has no type here.

export function webhookTailPg(sql: Pg): WebhookTailOps {
  const partner = (partnerId: string | null) => (partnerId === null ? sql`` : sql`AND d.partner_id = ${partnerId}`);
  return {
    async tailStart() {
      const [r] = await sql<{ deliveryMs: number | null; attemptMs: number | null }[]>`SELECT
        (SELECT MAX(created_at_ms) FROM webhook_deliveries) AS "deliveryMs",
        (SELECT MAX(started_at_ms) FROM webhook_attempts) AS "attemptMs"`;
      return { deliveryMs: r?.deliveryMs ?? 0, attemptMs: r?.attemptMs ?? 0 };
    },
    deliveriesAfter: async (atMs, key, partnerId, limit) => [
      ...(await sql<TailDelivery[]>`SELECT d.id, d.partner_id AS "partnerId", d.type, d.created_at_ms AS "createdAtMs"
        FROM webhook_deliveries d
        WHERE (d.created_at_ms > ${atMs} OR (d.created_at_ms = ${atMs} AND d.id > ${key})) ${partner(partnerId)}
        ORDER BY d.created_at_ms, d.id LIMIT ${limit}`),
    ],
    // The tail key is text, as SQLite's `delivery_id || '#' || n` is (n printed in decimal).
    attemptsAfter: async (atMs, key, partnerId, limit) => [
      ...(await sql<(TailAttempt & { tailKey: string })[]>`SELECT * FROM (SELECT a.delivery_id AS "deliveryId",
          d.partner_id AS "partnerId", d.type, a.n, a.started_at_ms AS "startedAtMs", a.outcome, a.http_status AS "httpStatus",
          a.latency_ms AS "latencyMs", a.error, a.delivery_id || '#' || a.n::text AS "tailKey"
        FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE a.started_at_ms >= ${atMs} ${partner(partnerId)}) t
        WHERE "startedAtMs" > ${atMs} OR "tailKey" > ${key} ORDER BY "startedAtMs", "tailKey" LIMIT ${limit}`),
    ],
  };
}
