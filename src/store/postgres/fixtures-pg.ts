import type { PaymentPatch, RefundPatch } from "../rows-money";
import type { FixturesOps } from "../store";
import type { Pg } from "./pg";

// The PostgreSQL side of the operations only tests call (sqlite/fixtures-sql.ts has the why):
// states no transition makes, so they skip every transition's checks. The tidy test keeps them
// out of the service.

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

/** One UPDATE of the given columns of one row; the names come from the maps above, the values are parameters. */
async function patchRow<P extends object>(sql: Pg, table: string, key: string, columns: Record<keyof P, string>, id: string, patch: P) {
  const set = Object.fromEntries(
    (Object.keys(columns) as (keyof P)[]).filter((k) => patch[k] !== undefined).map((k) => [columns[k], patch[k]]),
  );
  if (Object.keys(set).length === 0) return false;
  return (await sql`UPDATE ${sql(table)} SET ${sql(set)} WHERE ${sql(key)} = ${id}`).count === 1;
}

export function fixturesPg(sql: Pg): FixturesOps {
  const count = async (table: "payments" | "payment_links") =>
    (await sql<{ n: number }[]>`SELECT count(*)::bigint AS n FROM ${sql(table)}`)[0]!.n;
  return {
    paymentCount: () => count("payments"),
    linkCount: () => count("payment_links"),
    psps: async () => [...(await sql<{ id: string; active: boolean }[]>`SELECT id, active FROM psps ORDER BY id COLLATE "C"`)],
    bins: async () => [
      ...(await sql<
        { bin: string; brand: string; family: "credit" | "debit" | "prepaid" | "foreign"; bank: string; installments: boolean }[]
      >`
        SELECT bin, brand, family, bank, installments FROM bins ORDER BY bin COLLATE "C"`),
    ],
    dayEnds: async () => (await sql<{ day: string }[]>`SELECT day FROM dayends ORDER BY day COLLATE "C"`).map((r) => r.day),
    patchPayment: (code, patch) => patchRow(sql, "payments", "code", PAYMENT_PATCH, code, patch),
    patchRefund: (id, patch) => patchRow(sql, "refunds", "id", REFUND_PATCH, id, patch),
    forcePayoutStatus: async (id, status) => (await sql`UPDATE payout_batches SET status = ${status} WHERE id = ${id}`).count === 1,
    async insertRefund(r) {
      await sql`INSERT INTO refunds (id, payment_code, partner_id, partner_refund_code, method, status, amount, proc_return_code,
          auth_code, err_msg, bank_reference, payout_batch_id, created_at_ms, updated_at_ms)
        VALUES (${r.id}, ${r.paymentCode}, ${r.partnerId}, ${r.partnerRefundCode}, ${r.method}, ${r.status}, ${r.amount},
          ${r.procReturnCode}, ${r.authCode}, ${r.errMsg}, ${r.bankReference}, ${r.payoutBatchId}, ${r.createdAtMs}, ${r.updatedAtMs})`;
    },
    async insertPayoutBatch(b) {
      await sql`INSERT INTO payout_batches (id, partner_id, day, amount, status, created_at_ms, updated_at_ms, reference)
        VALUES (${b.id}, ${b.partnerId}, ${b.day}, ${b.amount}, ${b.status}, ${b.createdAtMs}, ${b.updatedAtMs}, ${b.reference})`;
    },
    async deletePayments() {
      // Children first, so every foreign key holds at each step.
      for (const table of [
        "webhook_attempts",
        "webhook_deliveries",
        "capture_checks",
        "bank_auths",
        "payment_attempts",
        "refunds",
        "payments",
      ]) {
        await sql`DELETE FROM ${sql(table)}`;
      }
    },
  };
}
