import type { Db, SqlValue } from "./db-types";
import type { CapturedDayRow, OutcomeRow, PanelPaymentFilter, PayoutDueRow } from "../panel-dashboard-ops";

// The dashboard's figures and the payments list's bank and reason filters (docs/panel.md,
// Dashboard), one statement each. Captures read the partner's index of captures
// (payments_captured_by_partner), attempts go through the partner's payments (payments_by_partner)
// to their attempts (attempts_by_payment), payouts through payments_unpaid_by_partner.

/** The bank a card attempt went to: its member terminal's `bank`, else the connection it used. */
export const ATTEMPT_BANK = "COALESCE(t.bank, a.connection_id, p.connection_id)";

/**
 * docs/panel.md, How a failure gets its reason. Needs `a` (the attempt), `p` (its payment) and `t`
 * (the terminal the attempt ended on). An attempt ending on a router is one no member could take
 * (limits, an open breaker, a bank down); an attempt the bank was asked to capture and that still
 * failed was declined by it; one that failed at the bank's 3D page is abandoned when the payment
 * expired meanwhile, else the 3D step failed.
 */
export const ATTEMPT_OUTCOME = `CASE
  WHEN a.status = 'captured' THEN 'captured'
  WHEN a.status IN ('starting', 'acs', 'capturing') THEN 'open'
  WHEN a.status = 'declined' THEN 'declined'
  WHEN t.routing IS NOT NULL THEN 'limits'
  WHEN EXISTS (SELECT 1 FROM bank_auths b WHERE b.attempt_id = a.id) THEN 'declined'
  WHEN p.status = 'expired' THEN 'abandoned'
  ELSE 'three_d_failed' END`;

/** Terms for the payments list: a card attempt on the bank, or one that failed for the reason. */
export function attemptTerms(f: PanelPaymentFilter, add: (sql: string, ...values: SqlValue[]) => void): void {
  const exists = (term: string) => `EXISTS (SELECT 1 FROM payment_attempts a LEFT JOIN terminals t ON t.id = a.terminal_id
    WHERE a.payment_code = p.code AND ${term})`;
  if (f.bank) add(exists(`${ATTEMPT_BANK} = ?`), f.bank);
  if (f.reason) add(exists(`(${ATTEMPT_OUTCOME}) = ?`), f.reason);
}

export function panelDashboardSql(db: Db) {
  return {
    capturedByDay(partnerId: string, fromMs: number, toMs: number, offsetMs: number): CapturedDayRow[] {
      return db
        .prepare(
          `SELECT ((captured_at_ms + CAST(? AS INTEGER)) / 86400000) * 86400000 - CAST(? AS INTEGER) AS dayStartMs, COUNT(*) AS count, SUM(amount) AS sum
           FROM payments WHERE partner_id = ? AND captured_at_ms IS NOT NULL AND captured_at_ms >= ? AND captured_at_ms < ?
           GROUP BY dayStartMs ORDER BY dayStartMs`,
        )
        .all<CapturedDayRow>(offsetMs, offsetMs, partnerId, fromMs, toMs);
    },
    // By position: a GROUP BY name would take the column terminals.bank before the alias.
    attemptOutcomes(partnerId: string, fromMs: number, createdAfterMs: number): OutcomeRow[] {
      return db
        .prepare(
          `SELECT ${ATTEMPT_BANK} AS bank, ${ATTEMPT_OUTCOME} AS outcome, COUNT(*) AS count
           FROM payments p JOIN payment_attempts a ON a.payment_code = p.code LEFT JOIN terminals t ON t.id = a.terminal_id
           WHERE p.partner_id = ? AND p.created_at_ms >= ? AND a.created_at_ms >= ?
           GROUP BY 1, 2 ORDER BY 1, 2`,
        )
        .all<OutcomeRow>(partnerId, createdAfterMs, fromMs);
    },
    refundTotals(partnerId: string, fromMs: number): { count: number; sum: number } {
      return (
        db
          .prepare(
            `SELECT COUNT(*) AS count, COALESCE(SUM(amount), 0) AS sum FROM refunds
             WHERE partner_id = ? AND created_at_ms >= ? AND status = 'approved'`,
          )
          .get<{ count: number; sum: number }>(partnerId, fromMs) ?? { count: 0, sum: 0 }
      );
    },
    openLinks(partnerId: string, nowMs: number): { count: number; sum: number } {
      return (
        db
          .prepare(
            `SELECT COUNT(*) AS count, COALESCE(SUM(amount), 0) AS sum FROM payment_links
             WHERE partner_id = ? AND status IN ('pending', 'launched', 'initiated', 'failed') AND expires_at_ms > ?`,
          )
          .get<{ count: number; sum: number }>(partnerId, nowMs) ?? { count: 0, sum: 0 }
      );
    },
    payoutsDue(partnerId: string): PayoutDueRow[] {
      return db
        .prepare(
          `SELECT b.day AS valueDate, b.id AS batchId, NULL AS count, b.amount
           FROM payout_batches b WHERE b.partner_id = ? AND b.status = 'pending'
           UNION ALL
           SELECT expected_value_date, NULL, COUNT(*), SUM(net_to_partner) FROM payments
           WHERE partner_id = ? AND payout_batch_id IS NULL AND captured_at_ms IS NOT NULL AND status IN ('captured', 'refunded')
             AND expected_value_date IS NOT NULL
           GROUP BY expected_value_date
           ORDER BY valueDate, batchId`,
        )
        .all<PayoutDueRow>(partnerId, partnerId);
    },
  };
}
