import { inject } from "vitest";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import type { Repos } from "../../src/store/store";
import { connectPg, type Pg } from "../../src/store/postgres/pg";
import { applySchema } from "../../src/store/postgres/inspect";
import { freshDatabase } from "../support/pg-cluster";

// Issue 23: a PostgreSQL operation is right when it answers what the SQLite one answers. A test
// runs the same calls on both stores, each on an empty database with the schema applied, and
// compares the answers (differential testing: the SQLite store is the reference).

export type Both = {
  /** Runs `f` in one SQLite unit of work. */
  sqlite<T>(f: (tx: Repos) => Promise<T>): Promise<T>;
  /** Runs `f` in one PostgreSQL transaction. */
  pg<T>(f: (sql: Pg) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export async function bothStores(): Promise<Both> {
  const store = await openStore(":memory:");
  const db = await freshDatabase(inject("pgUrl"));
  const sql = connectPg(db.url, 4);
  await applySchema(sql);
  return {
    sqlite: (f) => store.write(f),
    pg: <T>(f: (sql: Pg) => Promise<T>) => sql.begin((tx) => f(tx)) as Promise<T>,
    async close() {
      await store.close();
      await sql.end();
      await db.drop();
    },
  };
}
