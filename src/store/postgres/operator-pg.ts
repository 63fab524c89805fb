import type { OperatorOps } from "../money-ops";
import type { LinkSummaryRow, OperatorFilter } from "../rows";
import type { PaymentSummaryRow, PayoutBatchRow, RefundRow } from "../rows-money";
import type { Pg } from "./pg";
import { PAYOUT_BATCH_COLUMNS } from "./settlement-pg";

// Read-only views for the operator CLI (docs/operating.md, The operator CLI) on PostgreSQL (issue 23): the same answers as
// sqlite/operator-sql.ts. Table names and orders are fixed fragments chosen from the constants
// below; every value is a parameter.

export const PAYMENT_SUMMARY = `code, partner_id AS "partnerId", terminal_id AS "terminalId", partner_tx_code AS "partnerTxCode",
  channel, link_id AS "linkId", status, amount, installment, masked_pan AS "maskedPan",
  commission_amount AS "commissionAmount", net_to_partner AS "netToPartner", expected_value_date AS "expectedValueDate",
  refunded_amount AS "refundedAmount", captured_at_ms AS "capturedAtMs", created_at_ms AS "createdAtMs"`;

const LINK_SUMMARY = `id, partner_id AS "partnerId", partner_reference AS "partnerReference", terminal_id AS "terminalId",
  status, amount, share_bps AS "shareBps", description, expires_at_ms AS "expiresAtMs", created_at_ms AS "createdAtMs"`;

/** The refund columns as a RefundRow (sqlite/refunds-sql.ts REFUND_COLUMNS, quoted for PostgreSQL). */
const REFUND_COLUMNS = `id, payment_code AS "paymentCode", partner_id AS "partnerId", partner_refund_code AS "partnerRefundCode",
  method, status, amount, proc_return_code AS "procReturnCode", auth_code AS "authCode", err_msg AS "errMsg",
  bank_reference AS "bankReference", payout_batch_id AS "payoutBatchId", created_at_ms AS "createdAtMs",
  updated_at_ms AS "updatedAtMs"`;

type Listing = { columns: string; table: "payments" | "payment_links" | "payout_batches"; order: string };

const PAYMENTS: Listing = { columns: PAYMENT_SUMMARY, table: "payments", order: "created_at_ms DESC, code DESC" };
const LINKS: Listing = { columns: LINK_SUMMARY, table: "payment_links", order: "created_at_ms DESC, partner_reference DESC, id DESC" };
const BATCHES: Listing = { columns: PAYOUT_BATCH_COLUMNS, table: "payout_batches", order: "day DESC, partner_id, id" };

export function operatorPg(sql: Pg): OperatorOps {
  /** A listing with the filter's optional partner and status; an absent one adds no term. */
  const listing = async <T extends object>(l: Listing, f: OperatorFilter): Promise<T[]> => [
    ...(await sql<T[]>`SELECT ${sql.unsafe(l.columns)} FROM ${sql(l.table)} WHERE true
      ${f.partnerId !== null ? sql`AND partner_id = ${f.partnerId}` : sql``}
      ${f.status !== null ? sql`AND status = ${f.status}` : sql``}
      ORDER BY ${sql.unsafe(l.order)} LIMIT ${f.limit}`),
  ];
  const summaries = sql.unsafe(PAYMENT_SUMMARY);
  const refunds = sql.unsafe(REFUND_COLUMNS);
  return {
    payments: (f) => listing<PaymentSummaryRow>(PAYMENTS, f),
    paymentsOfLink: async (linkId) => [
      ...(await sql<PaymentSummaryRow[]>`SELECT ${summaries} FROM payments WHERE link_id = ${linkId} ORDER BY created_at_ms, code`),
    ],
    paymentsOfBatch: async (batchId) => [
      ...(await sql<PaymentSummaryRow[]>`SELECT ${summaries} FROM payments WHERE payout_batch_id = ${batchId}
        ORDER BY created_at_ms, code`),
    ],
    links: (f) => listing<LinkSummaryRow>(LINKS, f),
    refund: async (id) => (await sql<RefundRow[]>`SELECT ${refunds} FROM refunds WHERE id = ${id}`)[0],
    refundsOfPayment: async (code) => [
      ...(await sql<RefundRow[]>`SELECT ${refunds} FROM refunds WHERE payment_code = ${code} ORDER BY created_at_ms, id`),
    ],
    refundsOfBatch: async (batchId) => [
      ...(await sql<RefundRow[]>`SELECT ${refunds} FROM refunds WHERE payout_batch_id = ${batchId} ORDER BY created_at_ms, id`),
    ],
    payoutBatches: (f) => listing<PayoutBatchRow>(BATCHES, f),
    payoutBatch: async (id) =>
      (await sql<PayoutBatchRow[]>`SELECT ${sql.unsafe(PAYOUT_BATCH_COLUMNS)} FROM payout_batches WHERE id = ${id}`)[0],
  };
}
