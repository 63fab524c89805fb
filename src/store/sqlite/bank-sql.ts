import type { Db } from "./db-types";
import type { CaptureCheckOutcome, CaptureCheckRow } from "../rows-money";

// The bank side of card attempts (issue 16, docs/banks.md): the one-Auth-per-attempt claim and the
// capture follow-ups (status questions about unknown outcomes, voids of late approvals).

const COLUMNS = `attempt_id AS attemptId, connection_id AS connectionId, kind, amount, bank_reference AS bankReference,
  tries, due_at_ms AS dueAtMs, outcome, updated_at_ms AS updatedAtMs`;

export function bankSql(db: Db) {
  return {
    /** The constraint behind "one Auth per attempt, ever": false when one was claimed before. */
    claimAuth: (attemptId: string, atMs: number): boolean =>
      db.prepare("INSERT INTO bank_auths (attempt_id, sent_at_ms) VALUES (?, ?) ON CONFLICT (attempt_id) DO NOTHING").run(attemptId, atMs)
        .changes === 1,
    authClaimed: (attemptId: string): boolean =>
      db.prepare("SELECT 1 AS one FROM bank_auths WHERE attempt_id = ?").get<{ one: number }>(attemptId) !== undefined,
    check: (attemptId: string) => db.prepare(`SELECT ${COLUMNS} FROM capture_checks WHERE attempt_id = ?`).get<CaptureCheckRow>(attemptId),
    /** Opens (or re-aims) the follow-up of an attempt: due at `dueAtMs`, tries counted from 0. */
    openCheck(
      c: Pick<CaptureCheckRow, "attemptId" | "connectionId" | "kind" | "amount" | "bankReference" | "dueAtMs">,
      atMs: number,
    ): void {
      db.prepare(
        `INSERT INTO capture_checks (attempt_id, connection_id, kind, amount, bank_reference, tries, due_at_ms, outcome, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, 0, ?, NULL, ?)
         ON CONFLICT (attempt_id) DO UPDATE SET kind = excluded.kind, bank_reference = excluded.bank_reference, tries = 0,
           due_at_ms = excluded.due_at_ms, outcome = NULL, updated_at_ms = excluded.updated_at_ms`,
      ).run(c.attemptId, c.connectionId, c.kind, c.amount, c.bankReference, c.dueAtMs, atMs);
    },
    /** One more try that left it open: due again at `dueAtMs`. */
    retryCheck: (attemptId: string, dueAtMs: number, atMs: number): boolean =>
      db
        .prepare(
          "UPDATE capture_checks SET tries = tries + 1, due_at_ms = ?, updated_at_ms = ? WHERE attempt_id = ? AND due_at_ms IS NOT NULL",
        )
        .run(dueAtMs, atMs, attemptId).changes === 1,
    /** Closes the follow-up with its outcome; false when it was closed already. */
    finishCheck: (attemptId: string, outcome: CaptureCheckOutcome, atMs: number): boolean =>
      db
        .prepare(
          "UPDATE capture_checks SET due_at_ms = NULL, outcome = ?, tries = tries + 1, updated_at_ms = ? WHERE attempt_id = ? AND due_at_ms IS NOT NULL",
        )
        .run(outcome, atMs, attemptId).changes === 1,
    openChecks: () =>
      db.prepare(`SELECT ${COLUMNS} FROM capture_checks WHERE due_at_ms IS NOT NULL ORDER BY due_at_ms`).all<CaptureCheckRow>(),
  };
}
