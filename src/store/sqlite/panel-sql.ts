import type { Db, SqlValue } from "./db-types";
import { PAYMENT_SUMMARY } from "./operator-sql";
import type { PaymentSummaryRow } from "../rows-money";
import type { PanelPaymentFilter } from "../panel-dashboard-ops";
import { attemptTerms, panelDashboardSql } from "./panel-dashboard-sql";

// The merchant panel's partner-scoped reads (docs/panel.md). Every query starts from the partner's
// own index range (payments_by_partner), so a listing never scans other partners' rows.

export function panelSql(db: Db) {
  return {
    ...panelDashboardSql(db),
    /** Newest first, keyset-paged: page N costs what page 1 does. */
    payments(f: PanelPaymentFilter): PaymentSummaryRow[] {
      const terms = ["partner_id = ?"];
      const params: SqlValue[] = [f.partnerId];
      const add = (sql: string, ...values: SqlValue[]) => {
        terms.push(sql);
        params.push(...values);
      };
      if (f.before !== null) add("(created_at_ms < ? OR (created_at_ms = ? AND code < ?))", f.before.atMs, f.before.atMs, f.before.code);
      if (f.status !== null) add("status = ?", f.status);
      if (f.fromMs !== null) add("created_at_ms >= ?", f.fromMs);
      if (f.toMs !== null) add("created_at_ms < ?", f.toMs);
      if (f.search !== null) add("(code = ? OR partner_tx_code = ?)", f.search, f.search);
      attemptTerms(f, add);
      return db
        .prepare(`SELECT ${PAYMENT_SUMMARY} FROM payments p WHERE ${terms.join(" AND ")} ORDER BY created_at_ms DESC, code DESC LIMIT ?`)
        .all<PaymentSummaryRow>(...params, f.limit);
    },
    /**
     * Captures in [fromMs, toMs). A payment is captured within its lifetime of creation, so the
     * created_at bound (a day earlier) keeps the read inside the partner's index range.
     */
    captured(partnerId: string, fromMs: number, toMs: number, createdAfterMs: number): { count: number; sum: number } {
      const row = db
        .prepare(
          `SELECT COUNT(*) AS count, COALESCE(SUM(amount), 0) AS sum FROM payments
           WHERE partner_id = ? AND created_at_ms >= ? AND captured_at_ms >= ? AND captured_at_ms < ?`,
        )
        .get<{ count: number; sum: number }>(partnerId, createdAfterMs, fromMs, toMs);
      return row ?? { count: 0, sum: 0 };
    },
  };
}
