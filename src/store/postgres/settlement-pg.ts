import type { SettlementOps } from "../money-ops";
import type { PayoutBatchRow } from "../rows-money";
import type { Pg } from "./pg";

// Day end, settlement and payout batches (docs/contract.md, Refunds) on PostgreSQL (issue 23): the same answers as
// sqlite/settlement-sql.ts. A day end is claimed once per date by inserting its row; settling and
// batching are set-wise conditional UPDATEs (`payout_batch_id IS NULL`), so a row lands in one
// batch only, and a second run finds nothing left. Sums may pass 2^53: they are computed as
// numeric, handed over as text and read as BigInt, exactly, as SQLite's CAST AS TEXT is.

/** A capture due for payout; repeats the partial index payments_payout_due's predicate. */
const duePayment = (sql: Pg, runDay: string) =>
  sql`settled_day IS NOT NULL AND payout_batch_id IS NULL AND expected_value_date <= ${runDay}
    AND status IN ('captured', 'refunded')`;

/** An approved credit refund not netted yet; repeats the partial index refunds_payout_due's predicate. */
const dueRefund = (sql: Pg, cutoffMs: number) =>
  sql`method = 'credit' AND status = 'approved' AND payout_batch_id IS NULL AND updated_at_ms < ${cutoffMs}`;

/** The payout batch columns as a PayoutBatchRow; the operator's read views select them too. */
export const PAYOUT_BATCH_COLUMNS = `id, partner_id AS "partnerId", day, amount, status, created_at_ms AS "createdAtMs",
  updated_at_ms AS "updatedAtMs", reference`;

export function settlementPg(sql: Pg): SettlementOps {
  const batchCols = sql.unsafe(PAYOUT_BATCH_COLUMNS);
  return {
    claimDay: async (day, atMs) =>
      (await sql`INSERT INTO dayends (day, ran_at_ms) VALUES (${day}, ${atMs}) ON CONFLICT (day) DO NOTHING`).count === 1,
    lastDay: async () => (await sql<{ day: string | null }[]>`SELECT MAX(day) AS day FROM dayends`)[0]?.day ?? null,
    oldestUnsettledCaptureMs: async () =>
      (
        await sql<{ atMs: number | null }[]>`SELECT MIN(captured_at_ms) AS "atMs" FROM payments
          WHERE settled_day IS NULL AND captured_at_ms IS NOT NULL AND status IN ('captured', 'refunded')`
      )[0]?.atMs ?? null,
    hasRun: async (day) => (await sql`SELECT 1 AS one FROM dayends WHERE day = ${day}`).length > 0,
    settle: async (day, cutoffMs) =>
      (
        await sql`UPDATE payments SET settled_day = ${day}
          WHERE settled_day IS NULL AND captured_at_ms IS NOT NULL AND captured_at_ms < ${cutoffMs}
            AND status IN ('captured', 'refunded')
            AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.payment_code = payments.code AND r.status = 'pending' AND r.method = 'void')`
      ).count,
    partnersWithDue: async (runDay, cutoffMs) =>
      (
        await sql<{ partnerId: string }[]>`SELECT partner_id AS "partnerId" FROM payments WHERE ${duePayment(sql, runDay)}
          UNION SELECT partner_id FROM refunds WHERE ${dueRefund(sql, cutoffMs)} ORDER BY "partnerId"`
      ).map((r) => r.partnerId),
    async dueOf(partnerId, runDay, cutoffMs) {
      const [r] = await sql<{ captures: string; refunds: string }[]>`SELECT
          (SELECT COALESCE(SUM(net_to_partner), 0) FROM payments WHERE partner_id = ${partnerId} AND ${duePayment(sql, runDay)})::text
            AS captures,
          (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE partner_id = ${partnerId} AND ${dueRefund(sql, cutoffMs)})::text
            AS refunds`;
      return { captures: BigInt(r?.captures ?? "0"), refunds: BigInt(r?.refunds ?? "0") };
    },
    async createBatch(b) {
      await sql`INSERT INTO payout_batches (id, partner_id, day, amount, status, created_at_ms, updated_at_ms)
        VALUES (${b.id}, ${b.partnerId}, ${b.day}, ${b.amount}, 'pending', ${b.createdAtMs}, ${b.createdAtMs})`;
    },
    // No lock needed: each UPDATE takes only rows no batch holds (re-checked after any row lock
    // wait), and the sum reads this transaction's own batch, which no other one writes into.
    async assignDue(batchId, partnerId, runDay, cutoffMs) {
      await sql`UPDATE payments SET payout_batch_id = ${batchId} WHERE partner_id = ${partnerId} AND ${duePayment(sql, runDay)}`;
      await sql`UPDATE refunds SET payout_batch_id = ${batchId} WHERE partner_id = ${partnerId} AND ${dueRefund(sql, cutoffMs)}`;
      const [r] = await sql<{ captures: string; refunds: string }[]>`SELECT
          (SELECT COALESCE(SUM(net_to_partner), 0) FROM payments WHERE payout_batch_id = ${batchId})::text AS captures,
          (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE payout_batch_id = ${batchId})::text AS refunds`;
      return BigInt(r?.captures ?? "0") - BigInt(r?.refunds ?? "0");
    },
    batch: async (id) => (await sql<PayoutBatchRow[]>`SELECT ${batchCols} FROM payout_batches WHERE id = ${id}`)[0],
    pendingBatches: async () => [
      ...(await sql<PayoutBatchRow[]>`SELECT ${batchCols} FROM payout_batches WHERE status = 'pending' ORDER BY created_at_ms, id`),
    ],
    finishBatch: async (id, from, to, atMs, reference = null) =>
      (
        await sql`UPDATE payout_batches SET status = ${to}, updated_at_ms = ${atMs}, reference = ${reference}
          WHERE id = ${id} AND status = ANY(${sql.array([...from])})`
      ).count === 1,
    banksOfBatch: async (id) =>
      // The captured attempt's connection; the payment's own when no attempt is on record (SQLite's).
      (
        await sql<{ bank: string }[]>`SELECT DISTINCT c.bank AS bank FROM payments p
          JOIN connections c ON c.id = COALESCE((SELECT a.connection_id FROM payment_attempts a
            WHERE a.payment_code = p.code AND a.status = 'captured'), p.connection_id)
          WHERE p.payout_batch_id = ${id} OR p.code IN (SELECT payment_code FROM refunds WHERE payout_batch_id = ${id})
          ORDER BY c.bank`
      ).map((r) => r.bank),
    async releaseBatch(id) {
      await sql`UPDATE payments SET payout_batch_id = NULL WHERE payout_batch_id = ${id}`;
      await sql`UPDATE refunds SET payout_batch_id = NULL WHERE payout_batch_id = ${id}`;
    },
  };
}
