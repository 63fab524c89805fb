import type { Sql } from "postgres";
import schemaSql from "./schema.sql" with { type: "text" };

// What the tests look at in a PostgreSQL database, beside the store (issue 18: no SQL outside
// src/store/, tests included): the catalog as PostgreSQL reports it, and the cluster-level
// statements a test needs to get a database of its own. The SQLite counterpart is
// src/store/sqlite/inspect.ts; these answer in the same shapes so a test can compare the two.

/** One column of a kasa table; `pk` is the 1-based place in the primary key, 0 outside it (as SQLite's table_info). */
/**
 * docs/postgresql.md "Connection limits across instances": what several instances writing at once
 * need and SQLite's single writer does not. Everything else in the two schemas is the same
 * (test/pg/schema-parity.test.ts); a copy from SQLite leaves these empty or at their default.
 */
export const PG_ONLY = { tables: ["connection_reservations"], columns: ["connection_usage.shard", "metric_counts.shard"] } as const;

/** Whether a table's column exists in both schemas (not in PG_ONLY). */
export const inBothSchemas = (table: string, column: string): boolean =>
  !(PG_ONLY.tables as readonly string[]).includes(table) && !(PG_ONLY.columns as readonly string[]).includes(`${table}.${column}`);

export type PgTableColumn = { table: string; column: string; type: string; notNull: boolean; pk: number };

/**
 * Runs src/store/postgres/schema.sql as it stands, in one transaction. The simple protocol is what
 * takes many statements in one message; the file is idempotent, so a second run changes nothing.
 */
export async function applySchema(sql: Sql): Promise<void> {
  await sql.begin((tx) => tx.unsafe(schemaSql).simple());
}

/** Every column of every table in the current schema, in table then column order. */
export async function tableColumns(sql: Sql): Promise<PgTableColumn[]> {
  const rows = await sql<Array<{ table: string; column: string; type: string; nullable: string; pk: number | null }>>`
    SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type, c.is_nullable AS nullable,
      (SELECT k.ordinal_position FROM information_schema.table_constraints AS t
         JOIN information_schema.key_column_usage AS k
           ON k.constraint_schema = t.constraint_schema AND k.constraint_name = t.constraint_name
        WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name
          AND k.column_name = c.column_name) AS pk
    FROM information_schema.columns AS c
    JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
    ORDER BY c.table_name, c.ordinal_position`;
  return rows.map((r) => ({ table: r.table, column: r.column, type: r.type, notNull: r.nullable === "NO", pk: r.pk ?? 0 }));
}

/** An index by its name, on its table, and what makes indexes differ beyond their columns. */
export type PgIndex = { table: string; name: string; unique: boolean; partial: boolean };

/**
 * The indexes created by name: those behind a PRIMARY KEY or UNIQUE constraint are left out, as
 * SQLite leaves out its automatic ones.
 */
export async function tableIndexes(sql: Sql): Promise<PgIndex[]> {
  const rows = await sql<PgIndex[]>`
    SELECT t.relname AS table, i.relname AS name, x.indisunique AS unique, x.indpred IS NOT NULL AS partial
    FROM pg_index AS x
    JOIN pg_class AS i ON i.oid = x.indexrelid
    JOIN pg_class AS t ON t.oid = x.indrelid
    WHERE t.relnamespace = to_regnamespace(current_schema())::oid
      AND NOT EXISTS (SELECT 1 FROM pg_constraint AS c WHERE c.conindid = x.indexrelid)
    ORDER BY i.relname`;
  return [...rows];
}

/** The triggers kasa created (not the internal ones that enforce foreign keys), by name. */
export async function triggerNames(sql: Sql): Promise<string[]> {
  const rows = await sql<Array<{ name: string }>>`
    SELECT g.tgname AS name FROM pg_trigger AS g JOIN pg_class AS t ON t.oid = g.tgrelid
    WHERE t.relnamespace = to_regnamespace(current_schema())::oid AND NOT g.tgisinternal ORDER BY g.tgname`;
  return rows.map((r) => r.name);
}

/** Makes an empty database on the cluster `sql` is connected to: how each test gets one of its own. */
export async function createDatabase(sql: Sql, name: string): Promise<void> {
  await sql`CREATE DATABASE ${sql(name)}`;
}

/** Drops a test's database, ending any connection the test left open to it (PostgreSQL 13's FORCE). */
export async function dropDatabase(sql: Sql, name: string): Promise<void> {
  await sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`;
}

/**
 * Empties every kasa table as a fresh database would be (the schema and its digest stay), so a test
 * run can reuse one database for many tests: a DELETE per table costs milliseconds where CREATE
 * DATABASE or TRUNCATE cost a fifth of a second each. Replica mode skips triggers and foreign keys
 * for the duration (the test cluster's user is a superuser); the catalog version row stays, as a
 * new database has it.
 */
export async function resetDatabase(sql: Sql): Promise<void> {
  const tables = await sql<Array<{ name: string }>>`
    SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'catalog_version' ORDER BY tablename`;
  const deletes = tables.map(({ name }) => (name === "meta" ? "DELETE FROM meta WHERE key <> 'pg_schema';" : `DELETE FROM ${name};`));
  await sql.begin((tx) =>
    tx
      .unsafe(
        `SET LOCAL session_replication_role = replica; ${deletes.join(" ")}
         SELECT setval(pg_get_serial_sequence('panel_audit', 'seq'), 1, false);`,
      )
      .simple(),
  );
}

/** A standby as its primary sees it (pg_stat_replication): `syncState` is 'sync' once commits wait for it. */
export type PgStandby = { applicationName: string; state: string; syncState: string };

/** The standbys streaming from the server `sql` is connected to: how a test waits for its synchronous standby. */
export async function replicationStandbys(sql: Sql): Promise<PgStandby[]> {
  const rows = await sql<PgStandby[]>`
    SELECT application_name AS "applicationName", state, sync_state AS "syncState"
    FROM pg_stat_replication ORDER BY application_name`;
  return [...rows];
}

/** Whether the server is a standby still replaying WAL (false once promoted, or on a primary). */
export async function inRecovery(sql: Sql): Promise<boolean> {
  const [row] = await sql<Array<{ recovery: boolean }>>`SELECT pg_is_in_recovery() AS recovery`;
  return row?.recovery === true;
}

/** Which of `codes` are payments of this database: a failover test's look at what a promoted standby holds. */
export async function paymentCodesPresent(sql: Sql, codes: readonly string[]): Promise<string[]> {
  const rows = await sql<Array<{ code: string }>>`SELECT code FROM payments WHERE code = ANY(${[...codes]}::text[]) ORDER BY code`;
  return rows.map((r) => r.code);
}

/**
 * Every row of one kasa table, as SQLite would answer it: a boolean flag as 1 or 0 (the SQLite
 * counterpart is tableRows in src/store/sqlite/inspect.ts), in no particular order. Open `sql` with
 * connectPg so bigints read as numbers. How a test compares a copied database with its source.
 */
export async function tableRows(sql: Sql, table: string): Promise<Array<Record<string, unknown>>> {
  const rows = await sql<Array<Record<string, unknown>>>`SELECT * FROM ${sql(table)}`;
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "boolean" ? Number(v) : v])));
}

/**
 * Turns the database into what one made before attempts recorded their route was (issue 29):
 * payment_attempts without terminal_id and connection_id, every row kept, and the digest of an
 * older schema file in `meta` (pg-store.ts applies the file only when the digest differs). How a
 * test proves that the next start brings an older database up to date.
 */
export async function dropAttemptRoutes(sql: Sql): Promise<void> {
  await sql`ALTER TABLE payment_attempts DROP COLUMN terminal_id, DROP COLUMN connection_id`;
  await sql`UPDATE meta SET value = 'before-issue-29' WHERE key = 'pg_schema'`;
}

/** docs/postgresql.md "Connection limits across instances": each running instance's reservation of a connection's room. */
export async function connectionReservations(
  sql: Sql,
  connectionId: string,
): Promise<Array<{ holder: string; amount: number; used: number }>> {
  const rows = await sql<Array<{ holder: string; amount: string; used: string }>>`
    SELECT holder, amount::text, used::text FROM connection_reservations WHERE connection_id = ${connectionId} ORDER BY holder`;
  return rows.map((r) => ({ holder: r.holder, amount: Number(r.amount), used: Number(r.used) }));
}

/** Holds the lock the exact check of a connection's limits takes (room-reservations-pg.ts) until `until` settles. */
export async function holdExactCheckLock(sql: Sql, connectionId: string, held: () => void, until: Promise<void>): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT 1 FROM connections WHERE id = ${connectionId} FOR NO KEY UPDATE`;
    held();
    await until;
  });
}

/**
 * Inserts a payment (on a terminal and connection that exist) and takes its count now, as a
 * COMMIT would (the deferred count trigger fired early), holding the count's row until `until`
 * settles: a test of what another session's commit waits for.
 */
export async function holdPaymentCount(
  sql: Sql,
  p: { code: string; partnerId: string; terminalId: string; connectionId: string },
  held: () => void,
  until: Promise<void>,
): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`INSERT INTO payments (code, partner_id, terminal_id, connection_id, partner_tx_code, channel, status, amount,
        principal, installment, payment_ref, expires_at_ms, created_at_ms, updated_at_ms)
      VALUES (${p.code}, ${p.partnerId}, ${p.terminalId}, ${p.connectionId}, ${`tx-${p.code}`}, 'api', 'initiated', 100, 100, 1,
        ${`ref-${p.code}`}, 2000, 1000, 1000)`;
    await tx`SET CONSTRAINTS ALL IMMEDIATE`;
    held();
    await until;
  });
}

/** A database as the versions before the per-session shards made the two split tables, with one row in each. */
export async function createUnshardedTotals(sql: Sql): Promise<void> {
  await sql`CREATE TABLE connection_usage (connection_id text COLLATE "C" NOT NULL, unit text COLLATE "C" NOT NULL,
    key bigint NOT NULL, amount bigint NOT NULL, PRIMARY KEY (connection_id, unit, key))`;
  await sql`CREATE TABLE metric_counts (family text COLLATE "C" NOT NULL, label text COLLATE "C" NOT NULL,
    n bigint NOT NULL, PRIMARY KEY (family, label))`;
  await sql`INSERT INTO connection_usage VALUES ('c1', 'd', 20000, 500)`;
  await sql`INSERT INTO metric_counts VALUES ('payment', 'initiated', 7)`;
}

/** Every row of the two split tables, numbers as numbers. */
export async function shardedTotals(sql: Sql) {
  return {
    usage: [...(await sql`SELECT connection_id, unit, key::int, amount::int, shard::int FROM connection_usage`)],
    counts: [...(await sql`SELECT family, label, n::int, shard::int FROM metric_counts`)],
  };
}

/** This session's shard (schema.sql `kasa_shard()`), and one payment counted in it, as the count trigger does. */
export async function countInSessionShard(sql: Sql): Promise<number> {
  const [row] = await sql<Array<{ s: number }>>`SELECT kasa_shard()::int AS s`;
  await sql`INSERT INTO metric_counts AS m (family, label, n, shard) VALUES ('payment', 'initiated', 1, kasa_shard())
    ON CONFLICT (family, label, shard) DO UPDATE SET n = m.n + 1`;
  return row?.s as number;
}

/** The tables ANALYZE (or VACUUM) never ran on: PostgreSQL's `reltuples` is still -1. */
export async function neverAnalyzed(sql: Sql): Promise<string[]> {
  const rows = await sql<Array<{ name: string }>>`
    SELECT relname AS name FROM pg_class
    WHERE relnamespace = to_regnamespace(current_schema())::oid AND relkind = 'r' AND reltuples < 0 ORDER BY relname`;
  return rows.map((r) => r.name);
}

/** Ends every reservation of room now, as if its ten seconds had passed (a test of what happens after). */
export async function expireReservations(sql: Sql): Promise<void> {
  await sql`UPDATE connection_reservations SET expires_at_ms = 0`;
}

/** Every connection's reservation rows, as (connection, holder) pairs. */
export async function reservationKeys(sql: Sql): Promise<string[]> {
  const rows = await sql<Array<{ key: string }>>`SELECT connection_id || '/' || holder AS key FROM connection_reservations ORDER BY 1`;
  return rows.map((r) => r.key);
}
