import type { RefundRow, RefundTotals } from "../rows-money";
import type { RefundsOps } from "../money-ops";
import type { Pg } from "./pg";

// Refunds and voids on PostgreSQL (issue 23): the translation of sqlite/refunds-sql.ts. Every change
// is one conditional UPDATE naming the states it may leave, so it stays atomic without the single
// writer: a concurrent UPDATE of the same row waits for the first, then re-checks its WHERE on the
// row the first left (applyToPayment can therefore never push refunded_amount past the amount).

/** The refund columns as a RefundRow. */
export const REFUND_COLUMNS_PG = `id, payment_code AS "paymentCode", partner_id AS "partnerId",
  partner_refund_code AS "partnerRefundCode", method, status, amount, proc_return_code AS "procReturnCode",
  auth_code AS "authCode", err_msg AS "errMsg", bank_reference AS "bankReference", payout_batch_id AS "payoutBatchId",
  created_at_ms AS "createdAtMs", updated_at_ms AS "updatedAtMs"`;

export function refundsPg(sql: Pg): RefundsOps {
  const columns = sql.unsafe(REFUND_COLUMNS_PG);
  return {
    get: async (id) => (await sql<RefundRow[]>`SELECT ${columns} FROM refunds WHERE id = ${id}`)[0],
    byPartnerCode: async (partnerId, partnerRefundCode) =>
      (
        await sql<
          RefundRow[]
        >`SELECT ${columns} FROM refunds WHERE partner_id = ${partnerId} AND partner_refund_code = ${partnerRefundCode}`
      )[0],
    ofPayment: async (paymentCode) => [
      ...(await sql<
        RefundRow[]
      >`SELECT ${columns} FROM refunds WHERE payment_code = ${paymentCode} ORDER BY created_at_ms, id COLLATE "C"`),
    ],
    // SUM over bigint is numeric in PostgreSQL: cast back so the totals are numbers, as on SQLite.
    async totals(paymentCode) {
      const r = (
        await sql<RefundTotals[]>`SELECT COALESCE(SUM(CASE WHEN status = 'approved' THEN amount END), 0)::bigint AS approved,
            COALESCE(SUM(CASE WHEN status = 'pending' THEN amount END), 0)::bigint AS pending,
            COUNT(*) AS count,
            COUNT(CASE WHEN status = 'approved' AND method = 'credit' THEN 1 END) AS "approvedCredits"
          FROM refunds WHERE payment_code = ${paymentCode}`
      )[0];
      return r ? { ...r } : { approved: 0, pending: 0, count: 0, approvedCredits: 0 };
    },
    async insertPending(r) {
      await sql`INSERT INTO refunds (id, payment_code, partner_id, partner_refund_code, method, status, amount, created_at_ms,
          updated_at_ms) VALUES (${r.id}, ${r.paymentCode}, ${r.partnerId}, ${r.partnerRefundCode}, ${r.method}, 'pending',
          ${r.amount}, ${r.createdAtMs}, ${r.createdAtMs})`;
    },
    notePendingAtBank: async (id, bankReference, atMs) =>
      (await sql`UPDATE refunds SET bank_reference = ${bankReference}, updated_at_ms = ${atMs} WHERE id = ${id} AND status = 'pending'`)
        .count === 1,
    finish: async (id, from, to, o, atMs) =>
      (
        await sql`UPDATE refunds SET status = ${to}, proc_return_code = ${o.procReturnCode}, auth_code = ${o.authCode},
            err_msg = ${o.errMsg}, bank_reference = COALESCE(${o.bankReference}::text, bank_reference), updated_at_ms = ${atMs}
          WHERE id = ${id} AND status = ANY(${[...from]}::text[])`
      ).count === 1,
    // The id breaks ties so the order is total (SQLite leaves ties to its sorter).
    allPending: async () => [
      ...(await sql<{ id: string; updatedAtMs: number }[]>`SELECT id, updated_at_ms AS "updatedAtMs" FROM refunds
        WHERE status = 'pending' ORDER BY created_at_ms, id COLLATE "C"`),
    ],
    applyToPayment: async (code, from, amount, whenDone, unsettledOnly, atMs) =>
      (
        await sql`UPDATE payments SET refunded_amount = refunded_amount + ${amount}::bigint,
            status = CASE WHEN refunded_amount + ${amount}::bigint = amount THEN ${whenDone}::text ELSE status END,
            updated_at_ms = ${atMs}
          WHERE code = ${code} AND status = ANY(${[...from]}::text[]) AND refunded_amount + ${amount}::bigint <= amount
            ${unsettledOnly ? sql`AND settled_day IS NULL` : sql``}`
      ).count === 1,
  };
}
