import type { CaptureCheckRow } from "../rows-money";
import type { BankOps } from "../money-ops";
import type { Pg } from "./pg";

// The bank side of card attempts on PostgreSQL (issue 23): the translation of sqlite/bank-sql.ts.
// The Auth claim is one INSERT … ON CONFLICT DO NOTHING and every follow-up change one conditional
// UPDATE, so each stays atomic without the single writer.

const COLUMNS = `attempt_id AS "attemptId", connection_id AS "connectionId", kind, amount, bank_reference AS "bankReference",
  tries, due_at_ms AS "dueAtMs", outcome, updated_at_ms AS "updatedAtMs"`;

export function bankPg(sql: Pg): BankOps {
  const columns = sql.unsafe(COLUMNS);
  return {
    claimAuth: async (attemptId, atMs) =>
      (await sql`INSERT INTO bank_auths (attempt_id, sent_at_ms) VALUES (${attemptId}, ${atMs}) ON CONFLICT (attempt_id) DO NOTHING`)
        .count === 1,
    authClaimed: async (attemptId) => (await sql`SELECT 1 AS one FROM bank_auths WHERE attempt_id = ${attemptId}`).length > 0,
    check: async (attemptId) => (await sql<CaptureCheckRow[]>`SELECT ${columns} FROM capture_checks WHERE attempt_id = ${attemptId}`)[0],
    async openCheck(c, atMs) {
      await sql`INSERT INTO capture_checks (attempt_id, connection_id, kind, amount, bank_reference, tries, due_at_ms, outcome, updated_at_ms)
        VALUES (${c.attemptId}, ${c.connectionId}, ${c.kind}, ${c.amount}, ${c.bankReference}, 0, ${c.dueAtMs}, NULL, ${atMs})
        ON CONFLICT (attempt_id) DO UPDATE SET kind = excluded.kind, bank_reference = excluded.bank_reference, tries = 0,
          due_at_ms = excluded.due_at_ms, outcome = NULL, updated_at_ms = excluded.updated_at_ms`;
    },
    retryCheck: async (attemptId, dueAtMs, atMs) =>
      (
        await sql`UPDATE capture_checks SET tries = tries + 1, due_at_ms = ${dueAtMs}, updated_at_ms = ${atMs}
          WHERE attempt_id = ${attemptId} AND due_at_ms IS NOT NULL`
      ).count === 1,
    finishCheck: async (attemptId, outcome, atMs) =>
      (
        await sql`UPDATE capture_checks SET due_at_ms = NULL, outcome = ${outcome}, tries = tries + 1, updated_at_ms = ${atMs}
          WHERE attempt_id = ${attemptId} AND due_at_ms IS NOT NULL`
      ).count === 1,
    // The attempt id breaks ties as SQLite's index on due_at_ms (whose entries end with the key) does.
    openChecks: async () => [
      ...(await sql<
        CaptureCheckRow[]
      >`SELECT ${columns} FROM capture_checks WHERE due_at_ms IS NOT NULL ORDER BY due_at_ms, attempt_id COLLATE "C"`),
    ],
  };
}
