import type { Db, SqlValue } from "./db-types";
import { REFUND_COLUMNS } from "./refunds-sql";
import { PAYOUT_BATCH_COLUMNS } from "./settlement-sql";
import type { LinkRow, LinkSummaryRow, OperatorFilter } from "../rows";
import type { PaymentRow, PaymentSummaryRow, PayoutBatchRow, RefundRow } from "../rows-money";

// Read-only views for the operator CLI (docs/operating.md, The operator CLI): listings across partners and the rows the
// API never shows (refunds by batch, payout batches). Kept apart from the resources' own files so
// the operator's queries never change what the API's named operations do.

export const PAYMENT_SUMMARY = `code, partner_id AS partnerId, terminal_id AS terminalId, partner_tx_code AS partnerTxCode,
  channel, link_id AS linkId, status, amount, installment, masked_pan AS maskedPan,
  commission_amount AS commissionAmount, net_to_partner AS netToPartner, expected_value_date AS expectedValueDate,
  refunded_amount AS refundedAmount, captured_at_ms AS capturedAtMs, created_at_ms AS createdAtMs`;

const LINK_SUMMARY = `id, partner_id AS partnerId, partner_reference AS partnerReference, terminal_id AS terminalId,
  status, amount, share_bps AS shareBps, description, expires_at_ms AS expiresAtMs, created_at_ms AS createdAtMs`;

/** `WHERE` for the optional partner and status of a listing (always a valid clause). */
function filterWhere(f: OperatorFilter): { sql: string; params: SqlValue[] } {
  const terms = ["1 = 1"];
  const params: SqlValue[] = [];
  if (f.partnerId !== null) {
    terms.push("partner_id = ?");
    params.push(f.partnerId);
  }
  if (f.status !== null) {
    terms.push("status = ?");
    params.push(f.status);
  }
  return { sql: terms.join(" AND "), params };
}

export function operatorSql(db: Db) {
  const list = <T>(columns: string, table: string, order: string, f: OperatorFilter): T[] => {
    const where = filterWhere(f);
    return db.prepare(`SELECT ${columns} FROM ${table} WHERE ${where.sql} ORDER BY ${order} LIMIT ?`).all<T>(...where.params, f.limit);
  };
  return {
    /** Newest first; the code breaks ties (it is time-ordered, docs/contract.md, Identifiers and formats). */
    payments: (f: OperatorFilter) => list<PaymentSummaryRow>(PAYMENT_SUMMARY, "payments", "created_at_ms DESC, code DESC", f),
    paymentsOfLink: (linkId: string) =>
      db.prepare(`SELECT ${PAYMENT_SUMMARY} FROM payments WHERE link_id = ? ORDER BY created_at_ms, code`).all<PaymentSummaryRow>(linkId),
    paymentsOfBatch: (batchId: string) =>
      db
        .prepare(`SELECT ${PAYMENT_SUMMARY} FROM payments WHERE payout_batch_id = ? ORDER BY created_at_ms, code`)
        .all<PaymentSummaryRow>(batchId),
    /** docs/contract.md#list-links's order (docs/decisions.md, Readings of the contract), across partners; the id makes it total. */
    links: (f: OperatorFilter) =>
      list<LinkSummaryRow>(LINK_SUMMARY, "payment_links", "created_at_ms DESC, partner_reference DESC, id DESC", f),
    refund: (id: string) => db.prepare(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = ?`).get<RefundRow>(id),
    refundsOfPayment: (code: string) =>
      db.prepare(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE payment_code = ? ORDER BY created_at_ms, id`).all<RefundRow>(code),
    refundsOfBatch: (batchId: string) =>
      db.prepare(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE payout_batch_id = ? ORDER BY created_at_ms, id`).all<RefundRow>(batchId),
    /** Latest day first. */
    payoutBatches: (f: OperatorFilter) => list<PayoutBatchRow>(PAYOUT_BATCH_COLUMNS, "payout_batches", "day DESC, partner_id, id", f),
    payoutBatch: (id: string) => db.prepare(`SELECT ${PAYOUT_BATCH_COLUMNS} FROM payout_batches WHERE id = ?`).get<PayoutBatchRow>(id),
  };
}
