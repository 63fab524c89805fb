import { openDb, type Db } from "./db";
import { configure, migrate } from "./migrate";
import { catalogCache, type CatalogCache } from "./catalog-cache";
import { createRepos, type Repos } from "./repos";
import { invariant } from "../invariant";
import { MasterKeyError, secretBox, type SecretBox } from "./secret-box";
import { secretsSql } from "./secrets-sql";
import { wallNowMs } from "../clock";

export type Unit<T> = (tx: Repos) => T;

export interface Store {
  readonly db: Db;
  /** Named read operations; reads need no queue (the connection only ever sees committed state between batches). */
  readonly q: Repos;
  /**
   * Group commit (DESIGN.md, request flow 4): every unit queued in one event-loop turn runs in
   * ONE `BEGIN IMMEDIATE` transaction, each unit inside its own SAVEPOINT, so a unit that throws
   * rolls back alone. Promises settle only after COMMIT returned with synchronous=FULL.
   */
  write<T>(unit: Unit<T>): Promise<T>;
  /** `kasa rotate-master-key`: every secret re-sealed under `next` (null: back to clear); how many. Reopen after. */
  rotateMasterKey(next: Buffer | null): Promise<number>;
  readonly stats: { batches: number; units: number };
  /** product 19 metrics: told each group commit's size and how long it took (ms). */
  observeBatches(observer: (units: number, ms: number) => void): void;
  close(): Promise<void>;
}

type Pending = { unit: Unit<unknown>; resolve: (v: unknown) => void; reject: (e: unknown) => void };

export type OpenOptions = {
  driver?: "bun" | "node";
  /** Product 19: seals webhook secrets and bank settings at rest (AES-256-GCM); null keeps them in clear. */
  masterKey?: Buffer | null;
};

export async function openStore(path: string, options: OpenOptions | "bun" | "node" = {}): Promise<Store> {
  const o = typeof options === "string" ? { driver: options } : options;
  const db = await openDb(path, o.driver);
  let box: SecretBox;
  try {
    configure(db, { memory: path === ":memory:" });
    migrate(db);
    box = openSecrets(db, o.masterKey ?? null);
  } catch (error) {
    db.close();
    throw error;
  }
  return createStore(db, box);
}

/**
 * The master key against the database (product 19): a key other than the one that sealed its
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

function createStore(db: Db, box: SecretBox): Store {
  const cache = catalogCache(db);
  const repos = createRepos(db, cache, box);
  const stats = { batches: 0, units: 0 };
  let queue: Pending[] = [];
  let scheduled = false;
  let closed = false;
  let batchObserver: ((units: number, ms: number) => void) | undefined;

  const flush = (): void => {
    scheduled = false;
    const batch = queue;
    queue = [];
    const started = wallNowMs();
    const results = runBatch(db, repos, batch, cache);
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
    db,
    q: repos,
    stats,
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
      while (scheduled) await new Promise((r) => setImmediate(r));
      closed = true;
      db.close();
    },
  };
}

type Result = { ok: true; value: unknown } | { ok: false; error: unknown };

function runBatch(db: Db, repos: Repos, batch: Pending[], cache: CatalogCache): Result[] {
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    return batch.map(() => ({ ok: false, error }));
  }
  const results: Result[] = batch.map((p) => {
    db.exec("SAVEPOINT unit");
    cache.inUnit(true);
    try {
      const value = p.unit(repos);
      db.exec("RELEASE unit");
      return { ok: true, value };
    } catch (error) {
      db.exec("ROLLBACK TO unit");
      db.exec("RELEASE unit");
      // The catalog version may now repeat a number whose cached rows the rollback undid.
      cache.reset();
      return { ok: false, error };
    } finally {
      cache.inUnit(false);
    }
  });
  try {
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    cache.reset();
    return batch.map(() => ({ ok: false, error }));
  }
  return results;
}
