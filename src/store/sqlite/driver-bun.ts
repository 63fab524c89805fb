import { Database } from "bun:sqlite";
import type { Db, SqlValue, Statement } from "./db-types";

export function openBunDb(path: string): Db {
  const db = new Database(path, { create: true });
  const cache = new Map<string, Statement>();
  // bun:sqlite closes lazily while statements are alive; a closed store must really let go of the
  // file (kasa restore checks that nobody else has it open).
  const prepared: Array<{ finalize(): void }> = [];
  return {
    driver: "bun",
    prepare(sql) {
      let stmt = cache.get(sql);
      if (!stmt) {
        const q = db.prepare(sql);
        prepared.push(q);
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
    inTransaction: () => db.inTransaction,
    close: () => {
      for (const q of prepared) q.finalize();
      db.close();
    },
  };
}
