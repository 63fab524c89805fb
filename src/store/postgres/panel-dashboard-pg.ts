import type { PanelDashboardOps, PanelPaymentFilter } from "../panel-dashboard-ops";
import { ATTEMPT_BANK, ATTEMPT_OUTCOME } from "../sqlite/panel-dashboard-sql";
import type { Pg } from "./pg";

// The dashboard's figures and the payments list's bank and reason filters on PostgreSQL: the same
// answers as sqlite/panel-dashboard-sql.ts, one statement each. Sums of bigint are numeric here,
// cast back to bigint so they read as numbers (pg.ts fails loudly past 2^53).

// The bank and outcome of an attempt are the same SQL on both stores: written once, in the SQLite twin.

/** Fragments for the payments list: a card attempt on the bank, or one that failed for the reason. */
export function attemptFragments(sql: Pg, f: PanelPaymentFilter) {
  const none = sql``;
  const exists = (term: ReturnType<Pg>) =>
    sql`AND EXISTS (SELECT 1 FROM payment_attempts a LEFT JOIN terminals t ON t.id = a.terminal_id
      WHERE a.payment_code = p.code AND ${term})`;
  return sql`${f.bank ? exists(sql`${sql.unsafe(ATTEMPT_BANK)} = ${f.bank}`) : none}
    ${f.reason ? exists(sql`(${sql.unsafe(ATTEMPT_OUTCOME)}) = ${f.reason}`) : none}`;
}

export function panelDashboardPg(sql: Pg): PanelDashboardOps {
  return {
    capturedByDay: async (partnerId, fromMs, toMs, offsetMs) => [
      ...(await sql<{ dayStartMs: number; count: number; sum: number }[]>`
        SELECT ((captured_at_ms + ${offsetMs}) / 86400000) * 86400000 - ${offsetMs} AS "dayStartMs", COUNT(*) AS count,
          SUM(amount)::bigint AS sum
        FROM payments WHERE partner_id = ${partnerId} AND captured_at_ms IS NOT NULL AND captured_at_ms >= ${fromMs}
          AND captured_at_ms < ${toMs}
        GROUP BY 1 ORDER BY 1`),
    ],
    attemptOutcomes: async (partnerId, fromMs, createdAfterMs) => [
      ...(await sql<{ bank: string; outcome: "captured"; count: number }[]>`
        SELECT ${sql.unsafe(ATTEMPT_BANK)} AS bank, ${sql.unsafe(ATTEMPT_OUTCOME)} AS outcome, COUNT(*) AS count
        FROM payments p JOIN payment_attempts a ON a.payment_code = p.code LEFT JOIN terminals t ON t.id = a.terminal_id
        WHERE p.partner_id = ${partnerId} AND p.created_at_ms >= ${createdAfterMs} AND a.created_at_ms >= ${fromMs}
        GROUP BY 1, 2 ORDER BY 1, 2`),
    ],
    async refundTotals(partnerId, fromMs) {
      const [r] = await sql<{ count: number; sum: number }[]>`SELECT COUNT(*) AS count, COALESCE(SUM(amount), 0)::bigint AS sum
        FROM refunds WHERE partner_id = ${partnerId} AND created_at_ms >= ${fromMs} AND status = 'approved'`;
      return r ?? { count: 0, sum: 0 };
    },
    async openLinks(partnerId, nowMs) {
      const [r] = await sql<{ count: number; sum: number }[]>`SELECT COUNT(*) AS count, COALESCE(SUM(amount), 0)::bigint AS sum
        FROM payment_links WHERE partner_id = ${partnerId} AND status IN ('pending', 'launched', 'initiated', 'failed')
          AND expires_at_ms > ${nowMs}`;
      return r ?? { count: 0, sum: 0 };
    },
    payoutsDue: async (partnerId) => [
      ...(await sql<{ valueDate: string; batchId: string | null; count: number | null; amount: number }[]>`
        SELECT b.day AS "valueDate", b.id AS "batchId", NULL::bigint AS count, b.amount
        FROM payout_batches b WHERE b.partner_id = ${partnerId} AND b.status = 'pending'
        UNION ALL
        SELECT expected_value_date, NULL, COUNT(*), SUM(net_to_partner)::bigint FROM payments
        WHERE partner_id = ${partnerId} AND payout_batch_id IS NULL AND captured_at_ms IS NOT NULL
          AND status IN ('captured', 'refunded') AND expected_value_date IS NOT NULL
        GROUP BY expected_value_date
        ORDER BY 1, 2`),
    ],
  };
}
