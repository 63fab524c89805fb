import { Database } from "bun:sqlite";
import type { Db, SqlValue, Statement } from "./db";

export function openBunDb(path: string): Db {
  const db = new Database(path, { create: true });
  const cache = new Map<string, Statement>();
  return {
    driver: "bun",
    prepare(sql) {
      let stmt = cache.get(sql);
      if (!stmt) {
        const q = db.prepare(sql);
        stmt = {
          run: (...p: SqlValue[]) => ({ changes: q.run(...(p as never[])).changes }),
          // bun:sqlite answers null for "no row"; the interface says undefined.
          get: <T>(...p: SqlValue[]) => (q.get(...(p as never[])) ?? undefined) as T | undefined,
          all: <T>(...p: SqlValue[]) => q.all(...(p as never[])) as T[],
        };
        cache.set(sql, stmt);
      }
      return stmt;
    },
    exec: (sql) => void db.run(sql),
    close: () => db.close(),
  };
}
