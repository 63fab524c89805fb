import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import * as pg from "../../src/store/postgres/inspect";
import { schemaOf, tableColumns, tableIndexes } from "../../src/store/sqlite/inspect";
import { freshDatabase } from "../support/pg-cluster";

// schema.sql stays the one schema kasa is designed in; src/store/postgres/schema.sql is its
// translation. This test is what keeps them in step: a column, table, index or trigger added to
// one and not the other fails here, naming the table. The SQLite side is read from a real store
// (as migrate leaves it), the PostgreSQL side from the catalog after the file ran, twice.

const store = await openStore(":memory:");
const sqliteSchema = schemaOf(store);
const sqliteColumns = tableColumns(store);
const sqliteIndexes = tableIndexes(store);
const sqliteTables = sqliteSchema.filter((o) => o.type === "table").map((o) => o.name);
const sqliteTriggers = sqliteSchema.filter((o) => o.type === "trigger").map((o) => o.name);

// The 0/1 flags are the INTEGER columns schema.sql guards with `CHECK (x IN (0, 1))`; read off the
// schema itself so a new flag is expected as boolean without touching this file.
const FLAG = /CHECK\s*\(\s*(\w+)\s+IN\s*\(\s*0\s*,\s*1\s*\)\s*\)/gi;
const flags = new Set(
  sqliteSchema.filter((o) => o.type === "table").flatMap((o) => [...(o.sql ?? "").matchAll(FLAG)].map((m) => `${o.name}.${m[1]}`)),
);
// PostgreSQL only (pg.PG_ONLY, docs/postgresql.md "Connection limits across instances"): what
// several instances writing at once need and SQLite's single writer does not.
const shared = (c: pg.PgTableColumn) => pg.inBothSchemas(c.table, c.column);

const TYPES: Record<string, string> = { INTEGER: "bigint", TEXT: "text", REAL: "double precision" };

/** What PostgreSQL must report for a SQLite column. A primary key column is NOT NULL there whether declared so or not. */
const expectedColumn = (c: (typeof sqliteColumns)[number]) => ({
  column: c.column,
  type: flags.has(`${c.table}.${c.column}`) ? "boolean" : (TYPES[c.type] ?? `no PostgreSQL type for SQLite ${c.type}`),
  notNull: c.notNull || c.pk > 0,
  pk: c.pk,
});

type PgSide = {
  columns: pg.PgTableColumn[];
  indexes: pg.PgIndex[];
  triggers: string[];
};

let sql: postgres.Sql;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let once: PgSide;
let twice: PgSide;

const read = async (): Promise<PgSide> => ({
  columns: await pg.tableColumns(sql),
  indexes: await pg.tableIndexes(sql),
  triggers: await pg.triggerNames(sql),
});

beforeAll(async () => {
  database = await freshDatabase(inject("pgUrl"));
  // The second run's "already exists, skipping" notices are expected; they are not worth printing.
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  await pg.applySchema(sql);
  once = await read();
  await pg.applySchema(sql);
  twice = await read();
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
  await store.close();
});

describe("product 22: src/store/postgres/schema.sql is schema.sql on PostgreSQL", () => {
  it("is idempotent: a second run leaves the catalog as the first did", () => {
    expect(twice).toEqual(once);
  });

  it("has the same tables", () => {
    expect([...new Set(twice.columns.filter(shared).map((c) => c.table))].sort()).toEqual([...sqliteTables].sort());
  });

  it("has its PostgreSQL-only tables and columns, and only those", () => {
    const extra = twice.columns.filter((c) => !shared(c));
    expect([...new Set(extra.map((c) => c.table))].sort()).toEqual(["connection_reservations", "connection_usage", "metric_counts"]);
    expect(extra.filter((c) => c.table !== "connection_reservations")).toEqual([
      { table: "connection_usage", column: "shard", type: "bigint", notNull: true, pk: 4 },
      { table: "metric_counts", column: "shard", type: "bigint", notNull: true, pk: 3 },
    ]);
  });

  it.each(sqliteTables)("%s: the same columns in the same order, NOT NULLs, primary key and types", (table) => {
    const actual = twice.columns.filter((c) => c.table === table && shared(c)).map(({ table: _, ...c }) => c);
    expect(actual).toEqual(sqliteColumns.filter((c) => c.table === table).map(expectedColumn));
  });

  it("has the same named indexes, on the same tables, as unique and as partial", () => {
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect([...twice.indexes].sort(byName)).toEqual([...sqliteIndexes].sort(byName));
  });

  it("has a trigger of the same name for every SQLite trigger", () => {
    expect([...twice.triggers].sort()).toEqual([...sqliteTriggers].sort());
  });
});
