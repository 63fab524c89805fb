import type { Db } from "./db-types";
import { SCHEMA_VERSION } from "./migrate";

// docs/postgresql.md `kasa migrate-to-postgres`: the SQLite side of the copy. Every row of every kasa table
// read page by page inside ONE read transaction, so the copy is one consistent snapshot even while
// a server keeps writing (WAL: readers never block the writer, nor it them). The PostgreSQL side is
// src/store/postgres/copy-from-sqlite.ts.

/** A row as read for the copy: INTEGER values as decimal text (exact past 2^53), REAL as numbers, TEXT as strings. */
export type ExportRow = Record<string, string | number | null>;

/** A kasa table of the file: its columns in declared order and how many rows the snapshot holds. */
export type ExportTable = { name: string; columns: string[]; rows: number };

export interface SqliteSnapshot {
  readonly tables: ExportTable[];
  /** The table's rows in primary-key order, `size` at a time (keyset paging: page N costs what page 1 does). */
  pages(table: string, size: number): Generator<ExportRow[]>;
  /** The highest number an AUTOINCREMENT key ever took (sqlite_sequence), which may exceed the rows left; null if none. */
  sequence(table: string): number | null;
  /** Ends the read transaction. */
  close(): void;
}

/** The file's schema version (PRAGMA user_version) and this kasa's: a copy needs the two equal. */
export function schemaVersions(db: Db): { file: number; kasa: number } {
  return { file: db.prepare("PRAGMA user_version").get<{ user_version: number }>()?.user_version ?? 0, kasa: SCHEMA_VERSION };
}

type Column = { name: string; type: string; pk: number };

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Opens one read transaction on `db` and describes every kasa table in it. The first SELECT pins
 * the snapshot: every later read, counts included, sees the database as it was then.
 */
export function readSnapshot(db: Db): SqliteSnapshot {
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("BEGIN");
  try {
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all<{ name: string }>()
      .map((t) => t.name);
    const columns = new Map<string, Column[]>(
      names.map((name) => [name, db.prepare("SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid").all<Column>(name)]),
    );
    const tables = names.map((name) => ({
      name,
      columns: columns.get(name)!.map((c) => c.name),
      rows: db.prepare(`SELECT COUNT(*) AS n FROM ${quote(name)}`).get<{ n: number }>()?.n ?? 0,
    }));
    const hasSequences =
      db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'").get<{ n: number }>()?.n === 1;
    return {
      tables,
      pages: (table, size) => pagesOf(db, table, columns.get(table) ?? [], size),
      sequence: (table) =>
        hasSequences ? (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?").get<{ seq: number }>(table)?.seq ?? null) : null,
      close: () => db.exec("COMMIT"),
    };
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

function* pagesOf(db: Db, table: string, columns: Column[], size: number): Generator<ExportRow[]> {
  if (columns.length === 0) throw new Error(`no table ${table} in the file`);
  const keys = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  // Key columns come as stored (the next page starts after the last key); other INTEGER columns as text.
  const select = columns
    .map((c) => (c.pk === 0 && c.type.toUpperCase() === "INTEGER" ? `CAST(${quote(c.name)} AS TEXT) AS ${quote(c.name)}` : quote(c.name)))
    .join(", ");
  const from = `SELECT ${select} FROM ${quote(table)}`;
  if (keys.length === 0) {
    // Every kasa table has a primary key; a table without one is read by offset within the same snapshot.
    const page = db.prepare(`${from} ORDER BY rowid LIMIT ? OFFSET ?`);
    for (let offset = 0; ; offset += size) {
      const rows = page.all<ExportRow>(size, offset);
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
    }
  }
  const order = keys.map((k) => quote(k.name)).join(", ");
  const first = db.prepare(`${from} ORDER BY ${order} LIMIT ?`);
  const next = db.prepare(`${from} WHERE (${order}) > (${keys.map(() => "?").join(", ")}) ORDER BY ${order} LIMIT ?`);
  let rows = first.all<ExportRow>(size);
  while (rows.length > 0) {
    yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    rows = next.all<ExportRow>(...keys.map((k) => last[k.name] ?? null), size);
  }
}
