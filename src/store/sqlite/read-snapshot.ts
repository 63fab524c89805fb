import type { Db, SqlValue, Statement } from "./db-types";

// Issue 37: a statement run outside a transaction opens and closes a read transaction of its own,
// and in WAL mode that means taking and dropping a lock on the -shm file (system calls) and
// checking the WAL header every time: about 2.5 µs of a bare primary-key read's 3.5 µs, and far
// more under load, where the system calls evict the caches the next request needs. So the first
// read outside a transaction begins one (`BEGIN`, deferred: it takes no lock until that read) and
// the next macrotask commits it, so every read of the same macrotask shares it (under 64
// connections, dozens of requests). The reads still see committed rows only, and a snapshot
// at most one macrotask old: what another process commits meanwhile (`kasa keys revoke`) shows from
// the next macrotask on, as it would to a request that had arrived a moment earlier. Anything else
// on the connection (a write, an `exec`, a statement that is not a plain SELECT, closing) first
// ends the snapshot, so writes never run inside it and a unit's BEGIN IMMEDIATE never meets it.

/** A plain SELECT without RETURNING cannot write; anything else ends the snapshot first. */
const readsOnly = (sql: string): boolean => /^\s*SELECT\b/i.test(sql) && !/\bRETURNING\b/i.test(sql);

export function readSnapshots(db: Db): Db {
  let open = false;
  const end = (): void => {
    if (!open) return;
    open = false;
    db.exec("COMMIT");
  };
  const begin = (): void => {
    if (open || db.inTransaction()) return;
    db.exec("BEGIN");
    open = true;
    setImmediate(end);
  };
  const cache = new Map<string, Statement>();
  const wrap = (sql: string, inner: Statement): Statement => {
    const first = readsOnly(sql) ? begin : end;
    return {
      run: (...p: SqlValue[]) => {
        end();
        return inner.run(...p);
      },
      get: <T>(...p: SqlValue[]) => {
        first();
        return inner.get<T>(...p);
      },
      all: <T>(...p: SqlValue[]) => {
        first();
        return inner.all<T>(...p);
      },
    };
  };
  return {
    driver: db.driver,
    prepare(sql) {
      let stmt = cache.get(sql);
      if (stmt === undefined) {
        stmt = wrap(sql, db.prepare(sql));
        cache.set(sql, stmt);
      }
      return stmt;
    },
    exec(sql) {
      end();
      db.exec(sql);
    },
    inTransaction: () => db.inTransaction(),
    close() {
      end();
      db.close();
    },
  };
}
