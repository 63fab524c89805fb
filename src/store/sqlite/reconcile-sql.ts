import type { Db } from "./db-types";
import type {
  ReconcileAttemptRow,
  ReconcileFindingRow,
  ReconcileRefundRow,
  ReconcileRunRow,
  RepairAction,
  RepairOutcome,
  RepairRow,
} from "../reconcile-ops";

// Reconciliation on SQLite (docs/reconciliation.md): the day's scope, stored runs and findings,
// repairs recorded before their bank call, and the run lease (one row per connection, taken in a
// unit, so the single writer decides between two processes).

/** The statuses of an attempt that reached the bank: a 3D step began there, or more. */
const SENT = `('acs', 'capturing', 'captured', 'failed')`;

const RUN_COLUMNS = `id, connection_id AS connectionId, day, started_at_ms AS startedAtMs, finished_at_ms AS finishedAtMs,
  superseded_by AS supersededBy, counts`;
const FINDING_COLUMNS = `class, payment_code AS paymentCode, attempt_id AS attemptId, refund_id AS refundId, kasa_status AS kasaStatus,
  kasa_amount AS kasaAmount, bank_status AS bankStatus, bank_amount AS bankAmount, bank_reference AS bankReference,
  repair_action AS repairAction, repair_outcome AS repairOutcome`;
const REPAIR_COLUMNS = `attempt_id AS attemptId, connection_id AS connectionId, action, amount, capture_reference AS captureReference,
  outcome, created_at_ms AS createdAtMs, updated_at_ms AS updatedAtMs`;

/** The connection that took payment `p`'s money: its captured attempt's, else its own (settlement-sql.ts). */
const CAPTURE_CONNECTION = `COALESCE((SELECT a.connection_id FROM payment_attempts a
  WHERE a.payment_code = p.code AND a.status = 'captured'), p.connection_id)`;

export function reconcileSql(db: Db) {
  return {
    attemptsSent: (connectionId: string, fromMs: number, toMs: number): ReconcileAttemptRow[] =>
      db
        .prepare(
          `SELECT a.id AS attemptId, a.payment_code AS paymentCode, a.status AS attemptStatus, p.status AS paymentStatus,
             p.amount, p.installment, p.bank_reference AS bankReference, p.expires_at_ms AS expiresAtMs,
             EXISTS (SELECT 1 FROM capture_checks c WHERE c.attempt_id = a.id AND c.due_at_ms IS NOT NULL) AS checkOpen
           FROM payment_attempts a JOIN payments p ON p.code = a.payment_code
           WHERE COALESCE(a.connection_id, p.connection_id) = ? AND a.created_at_ms >= ? AND a.created_at_ms < ? AND a.status IN ${SENT}
           ORDER BY a.created_at_ms, a.id`,
        )
        .all<Omit<ReconcileAttemptRow, "checkOpen"> & { checkOpen: number }>(connectionId, fromMs, toMs)
        .map((r) => ({ ...r, checkOpen: r.checkOpen === 1 })),
    refundsSent: (connectionId: string, fromMs: number, toMs: number): ReconcileRefundRow[] =>
      db
        .prepare(
          `SELECT r.id AS refundId, r.payment_code AS paymentCode, r.method, r.status, r.amount, r.bank_reference AS bankReference,
             p.bank_reference AS captureReference
           FROM refunds r JOIN payments p ON p.code = r.payment_code
           WHERE r.created_at_ms >= ? AND r.created_at_ms < ? AND ${CAPTURE_CONNECTION} = ?
           ORDER BY r.created_at_ms, r.id`,
        )
        .all<ReconcileRefundRow>(fromMs, toMs, connectionId),
    repair: (attemptId: string) =>
      db.prepare(`SELECT ${REPAIR_COLUMNS} FROM reconcile_repairs WHERE attempt_id = ?`).get<RepairRow>(attemptId),
    /** A new repair, or a credit replacing a void the bank declined (it could no longer void). */
    recordRepair: (r: Omit<RepairRow, "outcome" | "updatedAtMs">): boolean =>
      db
        .prepare(
          `INSERT INTO reconcile_repairs (attempt_id, connection_id, action, amount, capture_reference, outcome, created_at_ms, updated_at_ms)
           VALUES (?, ?, ?, ?, ?, NULL, ?, ?)
           ON CONFLICT (attempt_id) DO UPDATE SET action = excluded.action, outcome = NULL, updated_at_ms = excluded.updated_at_ms
           WHERE reconcile_repairs.action = 'void' AND reconcile_repairs.outcome = 'declined' AND excluded.action = 'credit'`,
        )
        .run(r.attemptId, r.connectionId, r.action, r.amount, r.captureReference, r.createdAtMs, r.createdAtMs).changes === 1,
    finishRepair: (attemptId: string, action: RepairAction, outcome: RepairOutcome, atMs: number): boolean =>
      db
        .prepare(
          `UPDATE reconcile_repairs SET outcome = ?, updated_at_ms = ?
           WHERE attempt_id = ? AND action = ? AND (outcome IS NULL OR outcome = 'unknown')`,
        )
        .run(outcome, atMs, attemptId, action).changes === 1,
    takeLease: (connectionId: string, holder: string, nowMs: number, untilMs: number): boolean =>
      db
        .prepare(
          `INSERT INTO reconcile_leases (connection_id, holder, until_ms) VALUES (?, ?, ?)
           ON CONFLICT (connection_id) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
           WHERE reconcile_leases.holder = excluded.holder OR reconcile_leases.until_ms <= ?`,
        )
        .run(connectionId, holder, untilMs, nowMs).changes === 1,
    releaseLease: (connectionId: string, holder: string): void => {
      db.prepare("DELETE FROM reconcile_leases WHERE connection_id = ? AND holder = ?").run(connectionId, holder);
    },
    saveRun(run: Omit<ReconcileRunRow, "supersededBy">, findings: readonly ReconcileFindingRow[]): void {
      db.prepare("UPDATE reconcile_runs SET superseded_by = ? WHERE connection_id = ? AND day = ? AND superseded_by IS NULL").run(
        run.id,
        run.connectionId,
        run.day,
      );
      db.prepare(
        `INSERT INTO reconcile_runs (id, connection_id, day, started_at_ms, finished_at_ms, superseded_by, counts)
         VALUES (?, ?, ?, ?, ?, NULL, ?)`,
      ).run(run.id, run.connectionId, run.day, run.startedAtMs, run.finishedAtMs, run.counts);
      const insert = db.prepare(
        `INSERT INTO reconcile_findings (run_id, seq, class, payment_code, attempt_id, refund_id, kasa_status, kasa_amount,
           bank_status, bank_amount, bank_reference, repair_action, repair_outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      findings.forEach((f, seq) => {
        insert.run(
          run.id,
          seq,
          f.class,
          f.paymentCode,
          f.attemptId,
          f.refundId,
          f.kasaStatus,
          f.kasaAmount,
          f.bankStatus,
          f.bankAmount,
          f.bankReference,
          f.repairAction,
          f.repairOutcome,
        );
      });
    },
    run: (id: string) => db.prepare(`SELECT ${RUN_COLUMNS} FROM reconcile_runs WHERE id = ?`).get<ReconcileRunRow>(id),
    runs: (connectionId: string | null, limit: number): ReconcileRunRow[] =>
      db
        .prepare(
          `SELECT ${RUN_COLUMNS} FROM reconcile_runs WHERE superseded_by IS NULL AND (? IS NULL OR connection_id = ?)
           ORDER BY day DESC, connection_id, id LIMIT ?`,
        )
        .all<ReconcileRunRow>(connectionId, connectionId, limit),
    findings: (runId: string): ReconcileFindingRow[] =>
      db.prepare(`SELECT ${FINDING_COLUMNS} FROM reconcile_findings WHERE run_id = ? ORDER BY seq`).all<ReconcileFindingRow>(runId),
  };
}
