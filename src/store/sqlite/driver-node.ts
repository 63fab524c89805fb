import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type { Db, SqlValue, Statement } from "./db-types";

export function openNodeDb(path: string): Db {
  // Loaded lazily through require: the compiled Bun binary never reaches this line, and a
  // static import would make it look for the package at start.
  const Driver = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  const db = new Driver(path);
  const cache = new Map<string, Statement>();
  return {
    driver: "node",
    prepare(sql) {
      let stmt = cache.get(sql);
      if (!stmt) {
        const q = db.prepare(sql);
        const reads = q.reader;
        stmt = {
          run: (...p: SqlValue[]) => {
            if (reads) {
              q.all(...p);
              return { changes: 0 };
            }
            return { changes: q.run(...p).changes };
          },
          get: <T>(...p: SqlValue[]) => q.get(...p) as T | undefined,
          all: <T>(...p: SqlValue[]) => q.all(...p) as T[],
        };
        cache.set(sql, stmt);
      }
      return stmt;
    },
    exec: (sql) => void db.exec(sql),
    inTransaction: () => db.inTransaction,
    close: () => db.close(),
  };
}
