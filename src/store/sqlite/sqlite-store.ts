import { openDb } from "./db";
import { readSnapshots } from "./read-snapshot";
import type { Db, SqlValue, Statement } from "./db-types";
import { configure, migrate } from "./migrate";
import { catalogCache, type CatalogCache } from "./catalog-cache";
import type { OpenOptions, Store, Unit } from "../store";
import { createSqlRepos, toAsyncRepos } from "./repos";
import { invariant } from "../../invariant";
import { MasterKeyError, secretBox, type SecretBox } from "../secret-box";
import { secretsSql } from "./secrets-sql";
import { wallNowMs } from "../../clock";
import type { Log } from "../../deps";
import { createLog } from "../../log";
import { committedReads, stallWatch, StalledUnitError, unitScopes, type StallWatch, type UnitScopes } from "./unit-scope";

/** The SQLite store: the declared interface, plus the connection for the maintenance commands (backup, check). */
export interface SqliteStore extends Store {
  readonly kind: "sqlite";
  readonly db: Db;
  /**
   * SQLite's query plan (EXPLAIN QUERY PLAN details, joined by " | ") of every statement that
   * `run` executes: how a test proves a named operation searches an index instead of scanning.
   */
  planOf(run: () => Promise<unknown>): Promise<string[]>;
}

type Pending = { unit: Unit<unknown>; resolve: (v: unknown) => void; reject: (e: unknown) => void };

export async function openSqliteStore(path: string, options: OpenOptions | "bun" | "node" = {}): Promise<SqliteStore> {
  const o = typeof options === "string" ? { driver: options } : options;
  // Reads outside units share one read transaction per macrotask (read-snapshot.ts).
  const db = readSnapshots(await openDb(path, o.driver));
  let box: SecretBox;
  try {
    configure(db, { memory: path === ":memory:" });
    migrate(db);
    box = openSecrets(db, o.masterKey ?? null);
  } catch (error) {
    db.close();
    throw error;
  }
  return createStore(db, box, o.log ?? createLog("store"));
}

/**
 * The master key against the database (docs/operating.md): a key other than the one that sealed its
 * secrets is refused; the first key given seals every secret still in clear, in one transaction.
 */
function openSecrets(db: Db, key: Buffer | null): SecretBox {
  const secrets = secretsSql(db);
  const sealedBy = secrets.sealedBy();
  const box = secretBox(key, { required: sealedBy !== null });
  if (box.keyId === null) return box;
  if (sealedBy !== null && sealedBy !== box.keyId) {
    throw new MasterKeyError(`wrong master key: the database's secrets are sealed with key ${sealedBy}, this key is ${box.keyId}`);
  }
  if (sealedBy === null) {
    // The clear values must not survive in freed space or in the WAL: zero what is freed, and
    // fold the WAL into the file once sealed.
    db.exec("PRAGMA secure_delete = ON");
    db.exec("BEGIN IMMEDIATE");
    try {
      secrets.reseal(secretBox(null), box);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    } finally {
      db.exec("PRAGMA secure_delete = OFF");
    }
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  return box;
}

function createStore(db: Db, box: SecretBox, log: Log): SqliteStore {
  const cache = catalogCache(db);
  const repos = toAsyncRepos(createSqlRepos(db, cache, box));
  const stats = { batches: 0, units: 0 };
  let queue: Pending[] = [];
  let scheduled = false;
  // The batch being run, if any: reads through `q` wait for it (they must never see its
  // uncommitted rows), and the next batch starts only after it.
  let running: Promise<void> | null = null;
  let closed = false;
  let batchObserver: ((units: number, ms: number) => void) | undefined;
  const scopes = unitScopes(repos);

  const flush = async (): Promise<void> => {
    scheduled = false;
    if (running !== null) await running;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    const started = wallNowMs();
    let done = (): void => {};
    running = new Promise((r) => {
      done = r;
    });
    const results = await runBatch(db, batch, cache, scopes, log);
    running = null;
    done();
    batchObserver?.(batch.length, wallNowMs() - started);
    stats.batches += 1;
    stats.units += batch.length;
    for (const [i, p] of batch.entries()) {
      const r = results[i];
      invariant(r !== undefined, "every unit has a result");
      if (r.ok) p.resolve(r.value);
      else p.reject(r.error);
    }
  };

  return {
    kind: "sqlite",
    shared: false,
    db,
    q: committedReads(repos, () => running),
    stats,
    planOf: (run) => planOf(db, run),
    observeBatches(observer) {
      batchObserver = observer;
    },
    async rotateMasterKey(next) {
      // As at the first seal: what the old key sealed is zeroed when freed and leaves the WAL.
      db.exec("PRAGMA secure_delete = ON");
      try {
        return await this.write((tx) => tx.secrets.reseal(box, secretBox(next)));
      } finally {
        db.exec("PRAGMA secure_delete = OFF");
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      }
    },
    write<T>(unit: Unit<T>): Promise<T> {
      if (closed) return Promise.reject(new Error("store is closed"));
      return new Promise<T>((resolve, reject) => {
        queue.push({ unit, resolve: resolve as (v: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    async close() {
      // Let every queued unit commit before the connection goes away.
      while (scheduled || running !== null) await new Promise((r) => setImmediate(r));
      closed = true;
      db.close();
    },
  };
}

type Result = { ok: true; value: unknown } | { ok: false; error: unknown };

async function runBatch(db: Db, batch: Pending[], cache: CatalogCache, scopes: UnitScopes, log: Log): Promise<Result[]> {
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    return batch.map(() => ({ ok: false, error }));
  }
  const stall = stallWatch();
  const results: Result[] = [];
  try {
    for (const p of batch) results.push(await runUnit(db, p.unit, cache, scopes, stall, log));
  } finally {
    stall.stop();
  }
  try {
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    cache.reset();
    return batch.map(() => ({ ok: false, error }));
  }
  return results;
}

/** One unit inside its SAVEPOINT: a unit that throws, or waits on anything but its repo calls, rolls back alone. */
async function runUnit(db: Db, unit: Unit<unknown>, cache: CatalogCache, scopes: UnitScopes, stall: StallWatch, log: Log): Promise<Result> {
  db.exec("SAVEPOINT unit");
  cache.inUnit(true);
  const scope = scopes.open();
  try {
    const value = await stall.race(Promise.resolve(unit(scope.tx)));
    db.exec("RELEASE unit");
    return { ok: true, value };
  } catch (error) {
    db.exec("ROLLBACK TO unit");
    db.exec("RELEASE unit");
    // The catalog version may now repeat a number whose cached rows the rollback undid.
    cache.reset();
    if (error instanceof StalledUnitError)
      log.error("invariant: a unit of work waited on something other than its own repo calls", { error });
    return { ok: false, error };
  } finally {
    scope.close();
    cache.inUnit(false);
  }
}

async function planOf(db: Db, run: () => Promise<unknown>): Promise<string[]> {
  const seen: Array<{ sql: string; params: SqlValue[] }> = [];
  const prepare = db.prepare;
  const traced = (sql: string): Statement => {
    const statement = prepare.call(db, sql);
    const note = (params: SqlValue[]) => seen.push({ sql, params });
    return {
      run: (...p) => (note(p), statement.run(...p)),
      get: (...p) => (note(p), statement.get(...p)),
      all: (...p) => (note(p), statement.all(...p)),
    };
  };
  // Every named operation prepares its statement when it runs, so swapping `prepare` sees them all.
  (db as { prepare: Db["prepare"] }).prepare = traced;
  try {
    await run();
  } finally {
    (db as { prepare: Db["prepare"] }).prepare = prepare;
  }
  return seen.map(({ sql, params }) =>
    prepare
      .call(db, `EXPLAIN QUERY PLAN ${sql}`)
      .all<{ detail: string }>(...params)
      .map((r) => r.detail)
      .join(" | "),
  );
}
