import BetterSqlite3 from "better-sqlite3";
import type { Db, SqlValue, Statement } from "./db";

export function openNodeDb(path: string): Db {
  const db = new BetterSqlite3(path);
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
    close: () => db.close(),
  };
}
