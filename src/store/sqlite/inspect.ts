import { openDb } from "./db";
import type { Db } from "./db-types";
import type { SqliteStore } from "./sqlite-store";

// What only an SQLite file has, for the tests that prove kasa's use of it: connection settings,
// the schema, the file's pages, an older schema version. These are not store operations (a
// PostgreSQL store has none of them), so they stay beside the SQLite implementation, and a test
// calls them instead of reaching for the connection (issue 18: no SQL outside src/store/).

type Opened = Pick<SqliteStore, "db">;

/** The read-only PRAGMAs the tests look at. */
export type ReadPragma = "integrity_check" | "user_version" | "journal_mode" | "synchronous" | "busy_timeout" | "foreign_keys";

/** The first row SQLite answers for the PRAGMA, as it answers it (`{ integrity_check: "ok" }`). */
export function readPragma(store: Opened, name: ReadPragma): Record<string, unknown> | undefined {
  return store.db.prepare(`PRAGMA ${name}`).get();
}

/** Every table, index and trigger kasa made, with the SQL that made it: the schema both drivers must agree on. */
export function schemaOf(store: Opened): Array<{ type: string; name: string; tbl: string; sql: string | null }> {
  return store.db
    .prepare("SELECT type, name, tbl_name AS tbl, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    .all();
}

/** One column of a kasa table as SQLite declares it; `pk` is the 1-based place in the primary key, 0 outside it. */
export type TableColumn = { table: string; column: string; type: string; notNull: boolean; pk: number };

/** Every column of every kasa table, in table then column order: what the PostgreSQL schema is compared with (docs/postgresql.md). */
export function tableColumns(store: Opened): TableColumn[] {
  return store.db
    .prepare(
      `SELECT m.name AS "table", c.name AS "column", c.type AS type, c."notnull" AS "notNull", c.pk AS pk
       FROM sqlite_master AS m, pragma_table_info(m.name) AS c
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, c.cid`,
    )
    .all<Omit<TableColumn, "notNull"> & { notNull: number }>()
    .map((c) => ({ ...c, notNull: c.notNull === 1 }));
}

/** The indexes kasa created by name (not the automatic ones behind PRIMARY KEY and UNIQUE), with what makes them differ. */
export function tableIndexes(store: Opened): Array<{ table: string; name: string; unique: boolean; partial: boolean }> {
  return store.db
    .prepare(
      `SELECT m.name AS "table", i.name AS name, i."unique" AS "unique", i.partial AS partial
       FROM sqlite_master AS m, pragma_index_list(m.name) AS i
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND i.origin = 'c' ORDER BY i.name`,
    )
    .all<{ table: string; name: string; unique: number; partial: number }>()
    .map((i) => ({ ...i, unique: i.unique === 1, partial: i.partial === 1 }));
}

/**
 * Where an index's root page lies in the file (1-based page number and page size), after folding
 * the WAL into the file so the bytes there are the index's: how a test damages it as a torn write would.
 */
export function indexRootPage(store: Opened, index: string): { page: number; pageSize: number } {
  const root = store.db
    .prepare("SELECT rootpage AS page FROM sqlite_master WHERE type = 'index' AND name = ?")
    .get<{ page: number }>(index);
  if (root === undefined) throw new Error(`no index ${index}`);
  const size = store.db.prepare("SELECT page_size AS size FROM pragma_page_size").get<{ size: number }>();
  store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return { page: root.page, pageSize: size?.size ?? 0 };
}

/**
 * BEGIN IMMEDIATE then COMMIT on the store's connection, which throws while a transaction is open:
 * how a test proves a unit's promise settles only after its batch committed.
 */
export function beginAndCommit(store: Opened): void {
  store.db.exec("BEGIN IMMEDIATE");
  store.db.exec("COMMIT");
}

/** Defers foreign-key checks to COMMIT for the current transaction: a violation then fails the whole batch. */
export function deferForeignKeys(store: Opened): void {
  store.db.exec("PRAGMA defer_foreign_keys = ON");
}

/**
 * Runs `write` with foreign keys off on the store's connection (SQLite ignores the switch inside a
 * transaction, so it is flipped around the units): how a test plants a row pointing at nothing.
 */
export async function withoutForeignKeys<T>(store: Opened, write: () => Promise<T>): Promise<T> {
  store.db.exec("PRAGMA foreign_keys = OFF");
  try {
    return await write();
  } finally {
    store.db.exec("PRAGMA foreign_keys = ON");
  }
}

/**
 * Turns the database into what a version-1 file was (before issue 17's connection totals and
 * docs/panel.md's panel tables), keeping every other row: how a test proves migrate brings one up to date.
 */
export function downgradeToVersion1(store: Opened): void {
  store.db.exec(`DROP TRIGGER payments_usage_insert; DROP TRIGGER payments_usage_status; DROP TABLE connection_usage;
    DROP TABLE panel_audit; DROP TABLE panel_sessions; DROP TABLE panel_users; PRAGMA user_version = 1`);
}

/** Writes an SQLite database that is not kasa's (one table of notes) at `path`: a file `kasa restore` must refuse. */
export async function writeForeignDatabase(path: string): Promise<void> {
  const db = await openDb(path);
  try {
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello')");
  } finally {
    db.close();
  }
}

/** Every row of one kasa table as stored, in no particular order: what a copy to PostgreSQL is compared with (docs/postgresql.md). */
export function tableRows(store: Opened, table: string): Array<Record<string, unknown>> {
  return store.db.prepare(`SELECT * FROM "${table.replaceAll('"', '""')}"`).all();
}

/**
 * Turns the database into what a version-6 file was: card attempts without the terminal and
 * connection they were routed to (issue 29), every row kept. SQLite cannot drop a column that
 * references another table, so the table is rebuilt without them, foreign keys off meanwhile.
 */
export function downgradeToVersion6(store: Opened): void {
  store.db.exec(`PRAGMA foreign_keys = OFF;
    CREATE TABLE payment_attempts_v6 (
      id            TEXT PRIMARY KEY,
      payment_code  TEXT NOT NULL REFERENCES payments(code),
      status        TEXT NOT NULL CHECK (status IN ('starting', 'declined', 'acs', 'capturing', 'captured', 'failed')),
      counted       INTEGER NOT NULL DEFAULT 0,
      created_at_ms INTEGER NOT NULL,
      updated_at_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO payment_attempts_v6 SELECT id, payment_code, status, counted, created_at_ms, updated_at_ms FROM payment_attempts;
    DROP TABLE payment_attempts;
    ALTER TABLE payment_attempts_v6 RENAME TO payment_attempts;
    CREATE INDEX attempts_by_payment ON payment_attempts(payment_code);
    PRAGMA foreign_keys = ON;
    PRAGMA user_version = 6`);
}

type ScratchRow = { id: string; n: number };

/**
 * A scratch table on a bare connection for the test of read snapshots' kept answers
 * (read-snapshot.ts): one row `a` = 1 to begin with.
 */
export function scratchTable(db: Db) {
  db.exec("CREATE TABLE scratch (id TEXT PRIMARY KEY, n INTEGER)");
  db.exec("INSERT INTO scratch VALUES ('a', 1)");
  const ordered = "SELECT id, n FROM scratch ORDER BY id";
  return {
    all: () => db.prepare(ordered).all<ScratchRow>(),
    /** The same statement as `all`, asked for one row. */
    first: () => db.prepare(ordered).get<ScratchRow>(),
    one: (id: string) => db.prepare("SELECT id, n FROM scratch WHERE id = ?").get<ScratchRow>(id),
    add: (id: string, n: number) => void db.prepare("INSERT INTO scratch VALUES (?, ?)").run(id, n),
  };
}
