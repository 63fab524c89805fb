import type { PanelOps } from "../panel-ops";
import type { PaymentSummaryRow } from "../rows-money";
import type { Pg } from "./pg";
import { PAYMENT_SUMMARY } from "./operator-pg";
import { attemptFragments, panelDashboardPg } from "./panel-dashboard-pg";

// The merchant panel's partner-scoped reads (docs/panel.md) on PostgreSQL (issue 23): the same
// answers as sqlite/panel-sql.ts. Every query starts from the partner's own index range
// (payments_by_partner); each optional filter is a fragment added or left out.

export function panelPg(sql: Pg): PanelOps {
  const none = sql``;
  return {
    ...panelDashboardPg(sql),
    payments: async (f) => [
      ...(await sql<PaymentSummaryRow[]>`SELECT ${sql.unsafe(PAYMENT_SUMMARY)} FROM payments p WHERE partner_id = ${f.partnerId}
        ${f.before !== null ? sql`AND (created_at_ms < ${f.before.atMs} OR (created_at_ms = ${f.before.atMs} AND code < ${f.before.code}))` : none}
        ${f.status !== null ? sql`AND status = ${f.status}` : none}
        ${f.fromMs !== null ? sql`AND created_at_ms >= ${f.fromMs}` : none}
        ${f.toMs !== null ? sql`AND created_at_ms < ${f.toMs}` : none}
        ${f.search !== null ? sql`AND (code = ${f.search} OR partner_tx_code = ${f.search})` : none}
        ${attemptFragments(sql, f)}
        ORDER BY created_at_ms DESC, code DESC LIMIT ${f.limit}`),
    ],
    // SUM of bigint is numeric in PostgreSQL: cast back to bigint so it reads as a number, as
    // SQLite's integer sum does (a sum past 2^53 fails loudly in pg.ts rather than rounding).
    async captured(partnerId, fromMs, toMs, createdAfterMs) {
      const [r] = await sql<{ count: number; sum: number }[]>`SELECT COUNT(*) AS count, COALESCE(SUM(amount), 0)::bigint AS sum
        FROM payments
        WHERE partner_id = ${partnerId} AND created_at_ms >= ${createdAfterMs} AND captured_at_ms >= ${fromMs}
          AND captured_at_ms < ${toMs}`;
      return r ?? { count: 0, sum: 0 };
    },
  };
}
