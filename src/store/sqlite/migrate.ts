import schemaSql from "../../../schema.sql" with { type: "text" };
import { connectionUsageSql } from "./connection-usage-sql";
import type { Db } from "./db-types";

/**
 * Bump when schema.sql changes; every statement there is idempotent (IF NOT EXISTS). Version 9
 * adds routing's columns (below) and the reconcile_* tables (issue 36: new tables, which
 * schema.sql creates); version 10 the panel dashboard's indexes (issue 38).
 */
export const SCHEMA_VERSION = 10;

/** Connection settings every opener shares: durability first (FULL), then concurrency (WAL). */
export function configure(db: Db, { memory }: { memory: boolean }): void {
  if (!memory) db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = FULL");
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA foreign_keys = ON");
}

export function migrate(db: Db): void {
  const row = db.prepare("PRAGMA user_version").get<{ user_version: number }>();
  const current = row?.user_version ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(`database schema version ${current} is newer than this kasa (${SCHEMA_VERSION})`);
  }
  if (current === SCHEMA_VERSION) return;
  db.exec("BEGIN IMMEDIATE");
  try {
    // Version 5 added connections.bank_config (issue 16); CREATE TABLE IF NOT EXISTS adds no column.
    if (current > 0 && current < 5) {
      addColumnIfMissing(db, "connections", "bank_config", "TEXT");
      addColumnIfMissing(db, "payout_batches", "reference", "TEXT");
    }
    // Version 8 records each attempt's terminal and connection (issue 29; version 7 is issue 30's
    // panel_login_failures, a new table); until then every attempt went to its payment's, so the
    // older rows are filled from the payment.
    const routeAttempts = current > 0 && current < 8;
    if (routeAttempts) {
      addColumnIfMissing(db, "payment_attempts", "terminal_id", "TEXT REFERENCES terminals(id)");
      addColumnIfMissing(db, "payment_attempts", "connection_id", "TEXT REFERENCES connections(id)");
    }
    // Version 9 added routing (docs/routing.md): three nullable columns, NULL on every older row.
    if (current > 0 && current < 9) {
      addColumnIfMissing(db, "connections", "breaker", "TEXT");
      addColumnIfMissing(db, "terminals", "routing", "TEXT");
      addColumnIfMissing(db, "payment_attempts", "route", "TEXT");
    }
    // Version 10 added the panel dashboard's indexes (docs/panel.md, Dashboard): schema.sql makes them.
    db.exec(schemaSql);
    if (routeAttempts) {
      db.exec(`UPDATE payment_attempts SET
        terminal_id = (SELECT p.terminal_id FROM payments p WHERE p.code = payment_attempts.payment_code),
        connection_id = (SELECT p.connection_id FROM payments p WHERE p.code = payment_attempts.payment_code)
        WHERE terminal_id IS NULL`);
    }
    // Version 2 added the connection-limit totals (issue 17): fill them from the payments so far.
    if (current < 2) connectionUsageSql(db).rebuildConnectionUsage();
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/** ALTER TABLE ADD COLUMN for a table that exists without the column (an older database). */
function addColumnIfMissing(db: Db, table: string, column: string, type: string): void {
  const exists = db.prepare("SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ?").get<{ one: number }>(table);
  if (!exists) return;
  const columns = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all<{ name: string }>();
  if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}
