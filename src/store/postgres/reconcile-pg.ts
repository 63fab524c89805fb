import type {
  ReconcileAttemptRow,
  ReconcileFindingRow,
  ReconcileOps,
  ReconcileRefundRow,
  ReconcileRunRow,
  RepairRow,
} from "../reconcile-ops";
import type { Pg } from "./pg";

// Reconciliation on PostgreSQL: the translation of sqlite/reconcile-sql.ts. The run lease is one
// INSERT … ON CONFLICT DO UPDATE … WHERE, atomic across instances without the single writer.

const RUN_COLUMNS = `id, connection_id AS "connectionId", day, started_at_ms AS "startedAtMs", finished_at_ms AS "finishedAtMs",
  superseded_by AS "supersededBy", counts`;
const FINDING_COLUMNS = `class, payment_code AS "paymentCode", attempt_id AS "attemptId", refund_id AS "refundId", kasa_status AS "kasaStatus",
  kasa_amount AS "kasaAmount", bank_status AS "bankStatus", bank_amount AS "bankAmount", bank_reference AS "bankReference",
  repair_action AS "repairAction", repair_outcome AS "repairOutcome"`;
const REPAIR_COLUMNS = `attempt_id AS "attemptId", connection_id AS "connectionId", action, amount, capture_reference AS "captureReference",
  outcome, created_at_ms AS "createdAtMs", updated_at_ms AS "updatedAtMs"`;

export function reconcilePg(sql: Pg): ReconcileOps {
  const runColumns = sql.unsafe(RUN_COLUMNS);
  return {
    attemptsSent: async (connectionId, fromMs, toMs) => [
      ...(await sql<ReconcileAttemptRow[]>`
        SELECT a.id AS "attemptId", a.payment_code AS "paymentCode", a.status AS "attemptStatus", p.status AS "paymentStatus",
          p.amount, p.installment, p.bank_reference AS "bankReference", p.expires_at_ms AS "expiresAtMs",
          EXISTS (SELECT 1 FROM capture_checks c WHERE c.attempt_id = a.id AND c.due_at_ms IS NOT NULL) AS "checkOpen"
        FROM payment_attempts a JOIN payments p ON p.code = a.payment_code
        WHERE COALESCE(a.connection_id, p.connection_id) = ${connectionId} AND a.created_at_ms >= ${fromMs} AND a.created_at_ms < ${toMs}
          AND a.status IN ('acs', 'capturing', 'captured', 'failed')
        ORDER BY a.created_at_ms, a.id COLLATE "C"`),
    ],
    refundsSent: async (connectionId, fromMs, toMs) => [
      ...(await sql<ReconcileRefundRow[]>`
        SELECT r.id AS "refundId", r.payment_code AS "paymentCode", r.method, r.status, r.amount, r.bank_reference AS "bankReference",
          p.bank_reference AS "captureReference"
        FROM refunds r JOIN payments p ON p.code = r.payment_code
        WHERE r.created_at_ms >= ${fromMs} AND r.created_at_ms < ${toMs}
          AND COALESCE((SELECT a.connection_id FROM payment_attempts a WHERE a.payment_code = p.code AND a.status = 'captured'),
            p.connection_id) = ${connectionId}
        ORDER BY r.created_at_ms, r.id COLLATE "C"`),
    ],
    repair: async (attemptId) =>
      (await sql<RepairRow[]>`SELECT ${sql.unsafe(REPAIR_COLUMNS)} FROM reconcile_repairs WHERE attempt_id = ${attemptId}`)[0],
    recordRepair: async (r) =>
      (
        await sql`INSERT INTO reconcile_repairs (attempt_id, connection_id, action, amount, capture_reference, outcome, created_at_ms, updated_at_ms)
          VALUES (${r.attemptId}, ${r.connectionId}, ${r.action}, ${r.amount}, ${r.captureReference}, NULL, ${r.createdAtMs}, ${r.createdAtMs})
          ON CONFLICT (attempt_id) DO UPDATE SET action = excluded.action, outcome = NULL, updated_at_ms = excluded.updated_at_ms
          WHERE reconcile_repairs.action = 'void' AND reconcile_repairs.outcome = 'declined' AND excluded.action = 'credit'`
      ).count === 1,
    finishRepair: async (attemptId, action, outcome, atMs) =>
      (
        await sql`UPDATE reconcile_repairs SET outcome = ${outcome}, updated_at_ms = ${atMs}
          WHERE attempt_id = ${attemptId} AND action = ${action} AND (outcome IS NULL OR outcome = 'unknown')`
      ).count === 1,
    takeLease: async (connectionId, holder, nowMs, untilMs) =>
      (
        await sql`INSERT INTO reconcile_leases (connection_id, holder, until_ms) VALUES (${connectionId}, ${holder}, ${untilMs})
          ON CONFLICT (connection_id) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
          WHERE reconcile_leases.holder = excluded.holder OR reconcile_leases.until_ms <= ${nowMs}`
      ).count === 1,
    async releaseLease(connectionId, holder) {
      await sql`DELETE FROM reconcile_leases WHERE connection_id = ${connectionId} AND holder = ${holder}`;
    },
    async saveRun(run, findings) {
      await sql`UPDATE reconcile_runs SET superseded_by = ${run.id}
        WHERE connection_id = ${run.connectionId} AND day = ${run.day} AND superseded_by IS NULL`;
      await sql`INSERT INTO reconcile_runs (id, connection_id, day, started_at_ms, finished_at_ms, superseded_by, counts)
        VALUES (${run.id}, ${run.connectionId}, ${run.day}, ${run.startedAtMs}, ${run.finishedAtMs}, NULL, ${run.counts})`;
      for (const [seq, f] of findings.entries()) {
        await sql`INSERT INTO reconcile_findings (run_id, seq, class, payment_code, attempt_id, refund_id, kasa_status, kasa_amount,
            bank_status, bank_amount, bank_reference, repair_action, repair_outcome)
          VALUES (${run.id}, ${seq}, ${f.class}, ${f.paymentCode}, ${f.attemptId}, ${f.refundId}, ${f.kasaStatus}, ${f.kasaAmount},
            ${f.bankStatus}, ${f.bankAmount}, ${f.bankReference}, ${f.repairAction}, ${f.repairOutcome})`;
      }
    },
    run: async (id) => (await sql<ReconcileRunRow[]>`SELECT ${runColumns} FROM reconcile_runs WHERE id = ${id}`)[0],
    runs: async (connectionId, limit) => [
      ...(await sql<ReconcileRunRow[]>`SELECT ${runColumns} FROM reconcile_runs
        WHERE superseded_by IS NULL AND (${connectionId}::text IS NULL OR connection_id = ${connectionId})
        ORDER BY day DESC, connection_id COLLATE "C", id COLLATE "C" LIMIT ${limit}`),
    ],
    findings: async (runId) => [
      ...(await sql<
        ReconcileFindingRow[]
      >`SELECT ${sql.unsafe(FINDING_COLUMNS)} FROM reconcile_findings WHERE run_id = ${runId} ORDER BY seq`),
    ],
  };
}
