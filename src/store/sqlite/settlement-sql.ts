import type { Db } from "./db-types";
import type { PartnerDue, PayoutBatchRow, PayoutStatus } from "../rows-money";

// Day end, settlement and payout batches (docs/contract.md, Refunds). A day end is claimed once per Istanbul date
// by inserting its row; settling and batching are set-wise conditional updates, so a second run
// (another process, a duplicate timer) finds nothing left to do.

// A capture is due once settled, its value date has come, and no batch paid or is paying it
// (a failed batch releases its items). Must repeat the partial index payments_payout_due.
const DUE_PAYMENT = `settled_day IS NOT NULL AND payout_batch_id IS NULL AND expected_value_date <= ?
  AND status IN ('captured', 'refunded')`;
// An approved credit refund is netted once, by the first batch after its approval instant.
// Must repeat the partial index refunds_payout_due.
const DUE_REFUND = `method = 'credit' AND status = 'approved' AND payout_batch_id IS NULL AND updated_at_ms < ?`;

/** The payout batch columns as a PayoutBatchRow; the operator's read views select them too. */
export const PAYOUT_BATCH_COLUMNS = `id, partner_id AS partnerId, day, amount, status, created_at_ms AS createdAtMs, updated_at_ms AS updatedAtMs, reference`;

const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");

/** The connection that took payment `p`'s money: its captured attempt's, else (no attempt on record) its own. */
const CAPTURE_CONNECTION = `COALESCE((SELECT a.connection_id FROM payment_attempts a
  WHERE a.payment_code = p.code AND a.status = 'captured'), p.connection_id)`;

export function settlementSql(db: Db) {
  return {
    /** INSERT … ON CONFLICT DO NOTHING: exactly one caller ever runs the day end of `day`. */
    claimDay: (day: string, atMs: number) =>
      db.prepare("INSERT INTO dayends (day, ran_at_ms) VALUES (?, ?) ON CONFLICT (day) DO NOTHING").run(day, atMs).changes === 1,
    /** The latest Istanbul date whose day end ran, or null on a database that never ran one. */
    lastDay: () => db.prepare("SELECT MAX(day) AS day FROM dayends").get<{ day: string | null }>()?.day ?? null,
    /** The first capture no day end has settled yet (voided ones never are), or null. */
    oldestUnsettledCaptureMs: () =>
      db
        .prepare(
          `SELECT MIN(captured_at_ms) AS atMs FROM payments
           WHERE settled_day IS NULL AND captured_at_ms IS NOT NULL AND status IN ('captured', 'refunded')`,
        )
        .get<{ atMs: number | null }>()?.atMs ?? null,
    hasRun: (day: string) => db.prepare("SELECT 1 AS one FROM dayends WHERE day = ?").get(day) !== undefined,
    /**
     * Settles every capture made before `cutoffMs` (the end of `day`) and not settled yet: after
     * this no void is possible. A payment whose void is pending waits for the bank's answer: an
     * approved void leaves nothing to settle, a declined one is settled by the next day end.
     */
    settle: (day: string, cutoffMs: number) =>
      db
        .prepare(
          `UPDATE payments SET settled_day = ?
           WHERE settled_day IS NULL AND captured_at_ms IS NOT NULL AND captured_at_ms < ?
             AND status IN ('captured', 'refunded')
             AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.payment_code = payments.code AND r.status = 'pending' AND r.method = 'void')`,
        )
        .run(day, cutoffMs).changes,
    /** The partners a day end running on `runDay` (00:00 = `cutoffMs`) may pay, in id order. */
    partnersWithDue: (runDay: string, cutoffMs: number) =>
      db
        .prepare(
          `SELECT partner_id AS partnerId FROM payments WHERE ${DUE_PAYMENT}
           UNION SELECT partner_id FROM refunds WHERE ${DUE_REFUND} ORDER BY partnerId`,
        )
        .all<{ partnerId: string }>(runDay, cutoffMs)
        .map((r) => r.partnerId),
    /** What that day end would pay one partner, exactly. */
    dueOf(partnerId: string, runDay: string, cutoffMs: number): PartnerDue {
      const r = db
        .prepare(
          `SELECT CAST((SELECT COALESCE(SUM(net_to_partner), 0) FROM payments WHERE partner_id = ? AND ${DUE_PAYMENT}) AS TEXT) AS captures,
                  CAST((SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE partner_id = ? AND ${DUE_REFUND}) AS TEXT) AS refunds`,
        )
        .get<{ captures: string; refunds: string }>(partnerId, runDay, partnerId, cutoffMs);
      return { captures: BigInt(r?.captures ?? "0"), refunds: BigInt(r?.refunds ?? "0") };
    },
    createBatch(b: Pick<PayoutBatchRow, "id" | "partnerId" | "day" | "amount" | "createdAtMs">): void {
      db.prepare(
        `INSERT INTO payout_batches (id, partner_id, day, amount, status, created_at_ms, updated_at_ms)
         VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
      ).run(b.id, b.partnerId, b.day, b.amount, b.createdAtMs, b.createdAtMs);
    },
    /** Puts the partner's due captures and refunds into the batch; answers the batch's net amount, exactly. */
    assignDue(batchId: string, partnerId: string, runDay: string, cutoffMs: number): bigint {
      db.prepare(`UPDATE payments SET payout_batch_id = ? WHERE partner_id = ? AND ${DUE_PAYMENT}`).run(batchId, partnerId, runDay);
      db.prepare(`UPDATE refunds SET payout_batch_id = ? WHERE partner_id = ? AND ${DUE_REFUND}`).run(batchId, partnerId, cutoffMs);
      const r = db
        .prepare(
          `SELECT CAST((SELECT COALESCE(SUM(net_to_partner), 0) FROM payments WHERE payout_batch_id = ?) AS TEXT) AS captures,
                  CAST((SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE payout_batch_id = ?) AS TEXT) AS refunds`,
        )
        .get<{ captures: string; refunds: string }>(batchId, batchId);
      return BigInt(r?.captures ?? "0") - BigInt(r?.refunds ?? "0");
    },
    batch: (id: string) => db.prepare(`SELECT ${PAYOUT_BATCH_COLUMNS} FROM payout_batches WHERE id = ?`).get<PayoutBatchRow>(id),
    /** Batches created but not yet answered by the bank (restart recovery). */
    pendingBatches: () =>
      db
        .prepare(`SELECT ${PAYOUT_BATCH_COLUMNS} FROM payout_batches WHERE status = 'pending' ORDER BY created_at_ms, id`)
        .all<PayoutBatchRow>(),
    finishBatch: (id: string, from: readonly PayoutStatus[], to: PayoutStatus, atMs: number, reference: string | null = null) =>
      db
        .prepare(
          `UPDATE payout_batches SET status = ?, updated_at_ms = ?, reference = ? WHERE id = ? AND status IN (${placeholders(from.length)})`,
        )
        .run(to, atMs, reference, id, ...from).changes === 1,
    /**
     * The banks of the connections behind a batch's captures and refunds: each
     * payment's captured attempt's connection (the payment's own when no attempt is on record).
     */
    banksOfBatch: (id: string): string[] =>
      db
        .prepare(
          `SELECT DISTINCT c.bank AS bank FROM payments p JOIN connections c ON c.id = ${CAPTURE_CONNECTION}
           WHERE p.payout_batch_id = ?
              OR p.code IN (SELECT payment_code FROM refunds WHERE payout_batch_id = ?)
           ORDER BY c.bank`,
        )
        .all<{ bank: string }>(id, id)
        .map((r) => r.bank),
    /** A failed payout gives its items back: they are due again at the next day end. */
    releaseBatch(id: string): void {
      db.prepare("UPDATE payments SET payout_batch_id = NULL WHERE payout_batch_id = ?").run(id);
      db.prepare("UPDATE refunds SET payout_batch_id = NULL WHERE payout_batch_id = ?").run(id);
    },
  };
}
