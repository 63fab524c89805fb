import type { Db } from "./db-types";
import type { NewRefund, PaymentStatus, RefundOutcome, RefundRow, RefundStatus, RefundTotals } from "../rows-money";

// Refunds and voids (docs/contract.md, The refund record / Refunds), and the payment columns a refund moves
// (refunded_amount, status). Every change is a conditional update that names the states it may
// leave and reports whether it moved, so a refund is recorded once however many units race.

/** The refund columns as a RefundRow; the operator's read views select them too. */
export const REFUND_COLUMNS = `id, payment_code AS paymentCode, partner_id AS partnerId, partner_refund_code AS partnerRefundCode,
  method, status, amount, proc_return_code AS procReturnCode, auth_code AS authCode, err_msg AS errMsg,
  bank_reference AS bankReference, payout_batch_id AS payoutBatchId, created_at_ms AS createdAtMs,
  updated_at_ms AS updatedAtMs`;

const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");

export function refundsSql(db: Db) {
  return {
    get: (id: string) => db.prepare(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = ?`).get<RefundRow>(id),
    byPartnerCode: (partnerId: string, partnerRefundCode: string) =>
      db
        .prepare(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE partner_id = ? AND partner_refund_code = ?`)
        .get<RefundRow>(partnerId, partnerRefundCode),
    /** docs/contract.md#the-payment-record `refunds`: oldest first (bounded by REFUNDS_PER_PAYMENT_MAX at creation). */
    ofPayment: (paymentCode: string) =>
      db.prepare(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE payment_code = ? ORDER BY created_at_ms, id`).all<RefundRow>(paymentCode),
    totals(paymentCode: string): RefundTotals {
      const r = db
        .prepare(
          `SELECT COALESCE(SUM(CASE WHEN status = 'approved' THEN amount END), 0) AS approved,
             COALESCE(SUM(CASE WHEN status = 'pending' THEN amount END), 0) AS pending,
             COUNT(*) AS count,
             COUNT(CASE WHEN status = 'approved' AND method = 'credit' THEN 1 END) AS approvedCredits
           FROM refunds WHERE payment_code = ?`,
        )
        .get<RefundTotals>(paymentCode);
      return r ?? { approved: 0, pending: 0, count: 0, approvedCredits: 0 };
    },
    /** The refund that reserves part of the payment while the bank is asked (one per payment, by index). */
    insertPending(r: NewRefund): void {
      db.prepare(
        `INSERT INTO refunds (id, payment_code, partner_id, partner_refund_code, method, status, amount, created_at_ms,
           updated_at_ms) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      ).run(r.id, r.paymentCode, r.partnerId, r.partnerRefundCode, r.method, r.amount, r.createdAtMs, r.createdAtMs);
    },
    /** The bank answered `pending`: keep its reference so the status can be asked later. */
    notePendingAtBank: (id: string, bankReference: string, atMs: number) =>
      db
        .prepare("UPDATE refunds SET bank_reference = ?, updated_at_ms = ? WHERE id = ? AND status = 'pending'")
        .run(bankReference, atMs, id).changes === 1,
    /** pending -> approved | declined with the bank's fields; `true` when it moved. */
    finish: (id: string, from: readonly RefundStatus[], to: RefundStatus, o: RefundOutcome, atMs: number) =>
      db
        .prepare(
          `UPDATE refunds SET status = ?, proc_return_code = ?, auth_code = ?, err_msg = ?,
             bank_reference = COALESCE(?, bank_reference), updated_at_ms = ?
           WHERE id = ? AND status IN (${placeholders(from.length)})`,
        )
        .run(to, o.procReturnCode, o.authCode, o.errMsg, o.bankReference, atMs, id, ...from).changes === 1,
    /** Every refund still waiting for the bank (restart recovery), oldest first. */
    allPending: () =>
      db
        .prepare("SELECT id, updated_at_ms AS updatedAtMs FROM refunds WHERE status = 'pending' ORDER BY created_at_ms")
        .all<{ id: string; updatedAtMs: number }>(),
    /**
     * An approved refund lands on its payment: `refunded_amount` grows by `amount`, never past the
     * amount, and the status moves to `whenDone` once nothing is left. `unsettledOnly` guards voids:
     * a payment a day end settled can no longer be voided (docs/contract.md, Refunds).
     */
    applyToPayment(
      code: string,
      from: readonly PaymentStatus[],
      amount: number,
      whenDone: PaymentStatus,
      unsettledOnly: boolean,
      atMs: number,
    ): boolean {
      return (
        db
          .prepare(
            `UPDATE payments SET refunded_amount = refunded_amount + ?,
               status = CASE WHEN refunded_amount + ? = amount THEN ? ELSE status END, updated_at_ms = ?
             WHERE code = ? AND status IN (${placeholders(from.length)}) AND refunded_amount + ? <= amount
               ${unsettledOnly ? "AND settled_day IS NULL" : ""}`,
          )
          .run(amount, amount, whenDone, atMs, code, ...from, amount).changes === 1
      );
    },
  };
}
