import type postgres from "postgres";
import { inBothSchemas } from "./inspect";
import { connectPg } from "./pg";
import { migratePg } from "./pg-store";

// docs/postgresql.md `kasa migrate-to-postgres`: the PostgreSQL side of the copy of a SQLite database. The
// schema is applied first (migratePg); then, in ONE transaction (all or nothing), the target must
// hold no kasa row, every table is copied parents first (foreign keys are checked row by row, as
// ever), and each table's count is compared with the source's before COMMIT. The SQLite side, one
// consistent snapshot read page by page, is src/store/sqlite/export-rows.ts.
//
// kasa's triggers are switched off for the copy (ALTER TABLE … DISABLE TRIGGER USER, undone before
// COMMIT, and rolled back with everything else on a failure): what they keep (connection_usage,
// metric_counts, catalog_version) is copied as the source has it, and firing them on every copied
// payment would count each one twice.

/** What the copy reads: the source's tables, their rows page by page, its AUTOINCREMENT high-water marks. */
export interface CopySource {
  readonly tables: ReadonlyArray<{ name: string; columns: string[]; rows: number }>;
  pages(table: string, size: number): Iterable<Array<Record<string, unknown>>>;
  sequence(table: string): number | null;
}

export type CopyReport = { tables: Array<{ table: string; rows: number }>; rows: number };

/** The target holds kasa rows already: the copy never merges into a database in use. */
export class TargetNotEmptyError extends Error {
  override name = "TargetNotEmptyError";
  constructor(readonly tables: string[]) {
    super(`the database already holds kasa data (rows in ${tables.join(", ")})`);
  }
}

/** Rows the schema writes itself: the digest migratePg records, and the catalog counter at 0. */
const SCHEMA_ROWS = { metaKey: "pg_schema", counter: "catalog_version" };
/** Any constant of our own, beside migratePg's: two copies into one database take turns (the second then finds rows). */
const COPY_LOCK = 0x6b617362;
/** PostgreSQL's limit on the parameters of one statement (a 16-bit count). */
const MAX_PARAMS = 65_535;

/** Connects to the target and applies kasa's schema; the copy runs on this one connection. */
export async function openCopyTarget(url: string): Promise<postgres.Sql> {
  const sql = connectPg(url, 1);
  try {
    await migratePg(sql);
    return sql;
  } catch (error) {
    await sql.end();
    throw error;
  }
}

type PgColumn = { table: string; column: string; type: string; identity: boolean };

/**
 * Copies every row of `source` into the (empty) database behind `sql`, `pageSize` rows per read
 * (and at most that many per INSERT), in one transaction; answers each table's row count.
 */
export async function copyFromSqlite(sql: postgres.Sql, source: CopySource, { pageSize = 5000 } = {}): Promise<CopyReport> {
  const report = await copyInOneTransaction(sql, source, pageSize);
  // The planner knows nothing of the rows just copied until autovacuum comes round; a server
  // started at once would plan a page of 20 links over 100,000 as a scan and sort (seconds each).
  // Only tables that received rows: an empty table analyzed is known to be empty, and the plans a
  // server caches in its first minute (before autovacuum's first pass) then scan it whole as it
  // fills (issue 37: the create's lookup of a partner's code scanned every payment); one never
  // analyzed is assumed to hold at least ten pages, and its lookups use their indexes.
  for (const t of report.tables.filter((t) => t.rows > 0)) await sql`ANALYZE ${sql(t.table)}`;
  return report;
}

async function copyInOneTransaction(sql: postgres.Sql, source: CopySource, pageSize: number): Promise<CopyReport> {
  return await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${COPY_LOCK})`;
    const columns = await tx<PgColumn[]>`
      SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type, c.is_identity = 'YES' AS identity
      FROM information_schema.columns AS c
      JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`;
    const target = new Map<string, PgColumn[]>();
    for (const c of columns.filter((c) => inBothSchemas(c.table, c.column))) target.set(c.table, [...(target.get(c.table) ?? []), c]);
    assertSameTables(source, target);

    const nonEmpty: string[] = [];
    for (const table of target.keys()) {
      if (table === SCHEMA_ROWS.counter) continue;
      const [row] =
        table === "meta"
          ? await tx<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM meta WHERE key <> ${SCHEMA_ROWS.metaKey}) AS any`
          : await tx<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM ${tx(table)}) AS any`;
      if (row?.any) nonEmpty.push(table);
    }
    if (nonEmpty.length > 0) throw new TargetNotEmptyError(nonEmpty);

    const triggered = (
      await tx<{ table: string }[]>`
        SELECT DISTINCT t.relname AS table FROM pg_trigger AS g JOIN pg_class AS t ON t.oid = g.tgrelid
        WHERE t.relnamespace = to_regnamespace(current_schema())::oid AND NOT g.tgisinternal ORDER BY t.relname`
    ).map((r) => r.table);
    for (const table of triggered) await tx`ALTER TABLE ${tx(table)} DISABLE TRIGGER USER`;
    // The counter's row comes from the source like every other row.
    await tx`DELETE FROM catalog_version`;

    const report: CopyReport = { tables: [], rows: 0 };
    const skipped = new Map<string, number>();
    for (const table of await parentsFirst(tx, [...target.keys()])) {
      const copied = await copyTable(tx, source, table, target.get(table)!, pageSize);
      report.tables.push({ table, rows: copied.written });
      report.rows += copied.written;
      skipped.set(table, copied.skipped);
      for (const c of target.get(table)!.filter((c) => c.identity)) await advanceIdentity(tx, table, c.column, source.sequence(table));
    }

    for (const table of triggered) await tx`ALTER TABLE ${tx(table)} ENABLE TRIGGER USER`;
    await verifyCounts(tx, source, report, skipped);
    report.tables.sort((a, b) => a.table.localeCompare(b.table));
    return report;
  });
}

/** The source must be a kasa database of this kasa's schema: the same tables with the same columns. */
function assertSameTables(source: CopySource, target: Map<string, PgColumn[]>): void {
  const problems: string[] = [];
  const sourceNames = new Set(source.tables.map((t) => t.name));
  for (const t of source.tables) {
    const pg = target.get(t.name);
    if (pg === undefined) {
      problems.push(`table ${t.name} is not in kasa's PostgreSQL schema`);
      continue;
    }
    const want = pg.map((c) => c.column).sort();
    const have = [...t.columns].sort();
    if (want.join(",") !== have.join(",")) problems.push(`table ${t.name} has columns (${have.join(", ")}), not (${want.join(", ")})`);
  }
  for (const name of target.keys()) if (!sourceNames.has(name)) problems.push(`table ${name} is missing from the file`);
  if (problems.length > 0) throw new Error(`the file's schema is not this kasa's: ${problems.join("; ")}`);
}

/** The tables in an order where every table comes after those its foreign keys point at. */
async function parentsFirst(tx: postgres.TransactionSql, tables: string[]): Promise<string[]> {
  const edges = await tx<{ child: string; parent: string }[]>`
    SELECT c.relname AS child, p.relname AS parent FROM pg_constraint AS k
    JOIN pg_class AS c ON c.oid = k.conrelid JOIN pg_class AS p ON p.oid = k.confrelid
    WHERE k.contype = 'f' AND c.relnamespace = to_regnamespace(current_schema())::oid`;
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const left = [...tables].sort();
  while (left.length > 0) {
    const i = left.findIndex((t) => [...parents.get(t)!].every((p) => ordered.includes(p) || !parents.has(p)));
    if (i < 0) throw new Error(`the foreign keys among ${left.join(", ")} form a cycle`);
    ordered.push(...left.splice(i, 1));
  }
  return ordered;
}

/** A source value as the target column takes it: a 0/1 flag becomes a boolean; numbers and text pass as they are. */
function convert(table: string, column: PgColumn, value: unknown): unknown {
  if (column.type !== "boolean" || value === null || value === undefined) return value ?? null;
  if (value === 1 || value === "1") return true;
  if (value === 0 || value === "0") return false;
  throw new Error(`${table}.${column.column} holds ${JSON.stringify(value)}, not a 0/1 flag`);
}

async function copyTable(
  tx: postgres.TransactionSql,
  source: CopySource,
  table: string,
  columns: PgColumn[],
  pageSize: number,
): Promise<{ written: number; skipped: number }> {
  const names = columns.map((c) => c.column);
  const perInsert = Math.max(1, Math.min(pageSize, Math.floor(MAX_PARAMS / names.length)));
  let written = 0;
  let skipped = 0;
  for (const page of source.pages(table, pageSize)) {
    // A meta row of PostgreSQL's own (the schema digest) is never taken from a file.
    const kept = page.filter((r) => table !== "meta" || r.key !== SCHEMA_ROWS.metaKey);
    skipped += page.length - kept.length;
    const rows = kept.map((r) => Object.fromEntries(columns.map((c) => [c.column, convert(table, c, r[c.column])])));
    for (let i = 0; i < rows.length; i += perInsert) {
      const chunk = rows.slice(i, i + perInsert);
      await tx`INSERT INTO ${tx(table)} ${tx(chunk as Record<string, postgres.ParameterOrJSON<never>>[], names)}`;
      written += chunk.length;
    }
  }
  return { written, skipped };
}

/** An identity column's next value comes after every copied one, and after any SQLite ever handed out (AUTOINCREMENT never reuses). */
async function advanceIdentity(tx: postgres.TransactionSql, table: string, column: string, floor: number | null): Promise<void> {
  await tx`
    SELECT setval(pg_get_serial_sequence(${table}, ${column}), m.top)
    FROM (SELECT GREATEST(MAX(${tx(column)}), ${floor ?? 0}::bigint) AS top FROM ${tx(table)}) AS m
    WHERE m.top > 0`;
}

/** Each table holds as many rows as the source's snapshot (meta: its own schema digest's row besides). */
async function verifyCounts(
  tx: postgres.TransactionSql,
  source: CopySource,
  report: CopyReport,
  skipped: Map<string, number>,
): Promise<void> {
  const mismatches: string[] = [];
  for (const { table, rows } of report.tables) {
    const expected = (source.tables.find((t) => t.name === table)?.rows ?? 0) - (skipped.get(table) ?? 0);
    const [counted] = await tx<{ n: number }[]>`SELECT COUNT(*)::int AS n FROM ${tx(table)}`;
    const inPg = (counted?.n ?? 0) - (table === "meta" ? 1 : 0);
    if (rows !== expected || inPg !== expected) mismatches.push(`${table}: ${expected} in the file, ${inPg} in PostgreSQL`);
  }
  if (mismatches.length > 0) throw new Error(`the copy does not match its source, nothing was kept: ${mismatches.join("; ")}`);
}
