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

/** Reads of more rows than this are not kept: copying them for every caller would cost more than it saves. */
const MAX_KEPT_ROWS = 64;
/** Answers kept per snapshot at most (a long macrotask of distinct reads starts over past it). */
const MAX_KEPT_READS = 1024;

type Row = Record<string, unknown>;

/**
 * The key of one read of one statement (`g` or `a` and its number: a row and a list of rows are
 * kept apart): its parameters, each tagged with its type and strings with their length, so no two
 * parameter lists share a key. A blob parameter is not keyed (null).
 */
function readKey(statement: string, params: readonly SqlValue[]): string | null {
  let key = `${statement}`;
  for (const p of params) {
    if (p === null) key += "|n";
    else if (typeof p === "string") key += `|s${p.length}:${p}`;
    else if (typeof p === "number" || typeof p === "bigint") key += `|${typeof p}${p}`;
    else return null;
  }
  return key;
}

/** Rows of plain values only (SQLite's text, numbers and nulls): a shallow copy is then a full one. */
const plain = (row: Row): boolean => {
  for (const key in row) if (typeof row[key] === "object" && row[key] !== null) return false;
  return true;
};
const copyRow = <T>(row: T): T => (row === undefined ? row : ({ ...(row as Row) } as T));

export function readSnapshots(db: Db): Db {
  let open = false;
  // What the snapshot's reads answered: the same statement with the same parameters answers the
  // same rows while the snapshot lasts (all kasa's SELECTs are deterministic: time is always a
  // parameter), so concurrent requests for the same link or page read it once. Every caller gets
  // its own copy of the rows, so none can change another's.
  let answers = new Map<string, unknown>();
  let statements = 0;
  const end = (): void => {
    if (!open) return;
    open = false;
    answers = new Map();
    db.exec("COMMIT");
  };
  const begin = (): void => {
    if (open || db.inTransaction()) return;
    db.exec("BEGIN");
    open = true;
    setImmediate(end);
  };
  /** The key of a read that may be kept (one inside the snapshot), else null. */
  const keyOf = (id: string, p: SqlValue[]): string | null => {
    begin();
    if (!open) return null;
    if (answers.size >= MAX_KEPT_READS) answers = new Map();
    return readKey(id, p);
  };
  const cache = new Map<string, Statement>();
  const wrap = (sql: string, inner: Statement): Statement => {
    const run = (...p: SqlValue[]) => {
      end();
      return inner.run(...p);
    };
    if (!readsOnly(sql)) {
      return {
        run,
        get: <T>(...p: SqlValue[]) => {
          end();
          return inner.get<T>(...p);
        },
        all: <T>(...p: SqlValue[]) => {
          end();
          return inner.all<T>(...p);
        },
      };
    }
    const id = statements++;
    const asRow = `g${id}`;
    const asRows = `a${id}`;
    return {
      run,
      get: <T>(...p: SqlValue[]) => {
        const key = keyOf(asRow, p);
        if (key !== null && answers.has(key)) return copyRow(answers.get(key)) as T | undefined;
        const row = inner.get<Row>(...p);
        if (key !== null && (row === undefined || plain(row))) answers.set(key, copyRow(row));
        return row as T | undefined;
      },
      all: <T>(...p: SqlValue[]) => {
        const key = keyOf(asRows, p);
        if (key !== null && answers.has(key)) return (answers.get(key) as Row[]).map(copyRow) as T[];
        const rows = inner.all<Row>(...p);
        if (key !== null && rows.length <= MAX_KEPT_ROWS && rows.every(plain)) answers.set(key, rows.map(copyRow));
        return rows as T[];
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
