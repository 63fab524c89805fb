import { createHash } from "node:crypto";
import { roomHolderId } from "../../ids";
import type postgres from "postgres";
import { MasterKeyError, secretBox, type SecretBox } from "../secret-box";
import type { OpenOptions, Store, Unit } from "../store";
import { connectPg } from "./pg";
import { invariantFindingsPg } from "./maintenance-pg";
import { pgCatalogCache } from "./catalog-cache-pg";
import { createPgRepos } from "./pg-repos";
import type { RoomHolder } from "./room-reservations-pg";
import { RUNNERS, groupCommit } from "./group-commit-pg";
import { batchScope, cachedReads, poolRepos } from "./cached-repos-pg";
import schemaSql from "./schema.sql" with { type: "text" };

// kasa on PostgreSQL (docs/postgresql.md): the declared store interface, READ COMMITTED, with the
// units of work queued in one event-loop turn committed together, each in its own savepoint
// (group-commit-pg.ts). A unit that checks several rows locks their parent row itself; a duplicate
// key (two instances creating the same thing at once) re-runs the unit once, alone, which then
// finds the row and answers as a replay or a 409.

export interface PgStore extends Store {
  readonly kind: "postgres";
  readonly shared: true;
  /** `kasa check` (docs/operating.md): kasa's invariants on this database, one line per finding (maintenance-pg.ts). */
  invariantFindings(): Promise<string[]>;
}

/** Any constant of our own: the advisory lock that serialises schema changes of starting instances. */
const MIGRATE_LOCK = 0x6b617361;

/** The schema file's digest, kept in `meta` once applied: an instance starting on an up-to-date database runs no DDL. */
const SCHEMA_DIGEST = createHash("sha256").update(schemaSql).digest("hex").slice(0, 16);
const SCHEMA_KEY = "pg_schema";

async function appliedDigest(sql: postgres.Sql): Promise<string | undefined> {
  const [table] = await sql<{ present: boolean }[]>`SELECT to_regclass('meta') IS NOT NULL AS present`;
  if (!table?.present) return undefined;
  return (await sql<{ value: string }[]>`SELECT value FROM meta WHERE key = ${SCHEMA_KEY}`)[0]?.value;
}

/**
 * Creates or completes the schema, one instance at a time (two concurrent CREATE TABLE IF NOT
 * EXISTS can collide), and records which file did it; a database already at this file's digest is
 * left alone (the DDL takes a fraction of a second and locks every table it touches).
 */
export async function migratePg(sql: postgres.Sql): Promise<void> {
  if ((await appliedDigest(sql)) === SCHEMA_DIGEST) return;
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATE_LOCK})`;
    await tx.unsafe(schemaSql).simple();
    await tx`INSERT INTO meta (key, value) VALUES (${SCHEMA_KEY}, ${SCHEMA_DIGEST}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
  });
}

export async function openPostgresStore(url: string, options: OpenOptions = {}): Promise<PgStore> {
  const sql = connectPg(url, undefined, options.pgPassword ?? null);
  try {
    await migratePg(sql);
    const box = await openSecrets(sql, options.masterKey ?? null);
    return createStore(sql, box);
  } catch (error) {
    await sql.end();
    throw error;
  }
}

/** As on SQLite (sqlite-store.ts): a wrong key is refused; the first key given seals every secret still in clear. */
async function openSecrets(sql: postgres.Sql, key: Buffer | null): Promise<SecretBox> {
  const sealedBy = await createPgRepos(sql, secretBox(null)).secrets.sealedBy();
  const box = secretBox(key, { required: sealedBy !== null });
  if (box.keyId === null) return box;
  if (sealedBy !== null && sealedBy !== box.keyId) {
    throw new MasterKeyError(`wrong master key: the database's secrets are sealed with key ${sealedBy}, this key is ${box.keyId}`);
  }
  if (sealedBy === null) await sql.begin((tx) => createPgRepos(tx, box).secrets.reseal(secretBox(null), box));
  return box;
}

function createStore(sql: postgres.Sql, box: SecretBox): PgStore {
  const stats = { batches: 0, units: 0 };
  const cache = pgCatalogCache(sql);
  const reads = cachedReads(sql, box, cache);
  // docs/postgresql.md "Connection limits across instances": each runner of this instance holds
  // its own reservations of room, so creates on one connection in two runners' transactions do
  // not wait for each other on one reservation row.
  const instance = roomHolderId();
  const holders: RoomHolder[] = Array.from({ length: RUNNERS }, (_, i) => ({ id: `${instance}/${i}`, hints: new Map() }));
  let observer: ((units: number, ms: number) => void) | undefined;
  let closed = false;
  const units = groupCommit({
    sql,
    openBatch: (runner) => batchScope(box, reads, holders[runner] as RoomHolder),
    // This instance's own change is seen by its next read, before any notification comes.
    afterTransaction: (batch) => {
      if (batch.changedCatalog()) cache.invalidate();
    },
    observe: (n, ms) => {
      stats.batches += 1;
      stats.units += n;
      observer?.(n, ms);
    },
  });
  return {
    kind: "postgres",
    shared: true,
    q: poolRepos(sql, box, reads, holders[0] as RoomHolder),
    stats,
    observeBatches(o) {
      observer = o;
    },
    async write<T>(unit: Unit<T>): Promise<T> {
      if (closed) throw new Error("store is closed");
      return await units.write(unit);
    },
    invariantFindings: () => invariantFindingsPg(sql),
    async rotateMasterKey(next) {
      return await this.write((tx) => tx.secrets.reseal(box, secretBox(next)));
    },
    async close() {
      closed = true;
      // Let every queued unit commit before the pool goes away.
      await units.drain();
      // A query that died with a failed-over primary can stay "current" on its connection
      // (porsager/postgres#1130): without a deadline, end() would wait for it forever.
      await sql.end({ timeout: 5 });
    },
  };
}
