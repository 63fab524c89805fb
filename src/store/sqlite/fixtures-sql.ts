import type { Db, SqlValue } from "./db-types";
import type { BinRow, PspRow } from "../rows";
import type { PaymentPatch, PayoutBatchRow, PayoutStatus, RefundPatch, RefundRow } from "../rows-money";

// Operations only the tests call (issue 18: tests use named store operations, never SQL). Some
// read what no feature needs to read; the writes reach states no transition makes (a forced status,
// amounts near 2^53, rows damaged for `kasa check` to find), so they skip every transition's checks.

const PAYMENT_PATCH: Record<keyof PaymentPatch, string> = {
  status: "status",
  netToPartner: "net_to_partner",
  refundedAmount: "refunded_amount",
  terminalId: "terminal_id",
  connectionId: "connection_id",
  settledDay: "settled_day",
  payoutBatchId: "payout_batch_id",
};

const REFUND_PATCH: Record<keyof RefundPatch, string> = { paymentCode: "payment_code", amount: "amount" };

/** One UPDATE of the given columns of one row; the column names come from the maps above, never from a caller. */
function patchRow<P extends Record<string, SqlValue | undefined>>(
  db: Db,
  table: string,
  key: string,
  columns: Record<keyof P, string>,
  id: string,
  patch: P,
): boolean {
  const set = (Object.keys(columns) as (keyof P)[]).filter((k) => patch[k] !== undefined);
  if (set.length === 0) return false;
  const sql = `UPDATE ${table} SET ${set.map((k) => `${columns[k]} = ?`).join(", ")} WHERE ${key} = ?`;
  return db.prepare(sql).run(...set.map((k) => patch[k] as SqlValue), id).changes === 1;
}

export function fixturesSql(db: Db) {
  const count = (table: "payments" | "payment_links"): number =>
    db.prepare(`SELECT count(*) AS n FROM ${table}`).get<{ n: number }>()?.n ?? 0;
  return {
    paymentCount: (): number => count("payments"),
    linkCount: (): number => count("payment_links"),
    psps: (): PspRow[] =>
      db
        .prepare("SELECT id, active FROM psps ORDER BY id")
        .all<{ id: string; active: number }>()
        .map((r) => ({ id: r.id, active: r.active === 1 })),
    bins: (): BinRow[] =>
      db
        .prepare("SELECT bin, brand, family, bank, installments FROM bins ORDER BY bin")
        .all<Omit<BinRow, "installments"> & { installments: number }>()
        .map((r) => ({ ...r, installments: r.installments === 1 })),
    dayEnds: (): string[] =>
      db
        .prepare("SELECT day FROM dayends ORDER BY day")
        .all<{ day: string }>()
        .map((r) => r.day),
    patchPayment: (code: string, patch: PaymentPatch): boolean => patchRow(db, "payments", "code", PAYMENT_PATCH, code, patch),
    patchRefund: (id: string, patch: RefundPatch): boolean => patchRow(db, "refunds", "id", REFUND_PATCH, id, patch),
    forcePayoutStatus: (id: string, status: PayoutStatus): boolean =>
      db.prepare("UPDATE payout_batches SET status = ? WHERE id = ?").run(status, id).changes === 1,
    insertRefund(r: RefundRow): void {
      db.prepare(
        `INSERT INTO refunds (id, payment_code, partner_id, partner_refund_code, method, status, amount, proc_return_code,
           auth_code, err_msg, bank_reference, payout_batch_id, created_at_ms, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        r.id,
        r.paymentCode,
        r.partnerId,
        r.partnerRefundCode,
        r.method,
        r.status,
        r.amount,
        r.procReturnCode,
        r.authCode,
        r.errMsg,
        r.bankReference,
        r.payoutBatchId,
        r.createdAtMs,
        r.updatedAtMs,
      );
    },
    insertPayoutBatch(b: PayoutBatchRow): void {
      db.prepare(
        `INSERT INTO payout_batches (id, partner_id, day, amount, status, created_at_ms, updated_at_ms, reference)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(b.id, b.partnerId, b.day, b.amount, b.status, b.createdAtMs, b.updatedAtMs, b.reference);
    },
    deletePayments(): void {
      // Children first, so the deletes hold with foreign keys on.
      db.exec(`DELETE FROM webhook_attempts; DELETE FROM webhook_deliveries; DELETE FROM capture_checks; DELETE FROM bank_auths;
        DELETE FROM payment_attempts; DELETE FROM refunds; DELETE FROM payments`);
    },
  };
}
