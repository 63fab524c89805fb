import type postgres from "postgres";

// The catalog reads every API request makes (its key by hash, its partner, the terminal, its
// connection and PSP) served from memory on PostgreSQL, as on SQLite (sqlite/catalog-cache.ts),
// kept exact another way: here several instances write one database, and comparing the
// `catalog_version` row before each read would cost the round trip the cache saves. Instead:
// - the trigger that bumps `catalog_version` also NOTIFYs `kasa_catalog` in the changing
//   transaction (schema.sql), so every instance LISTENing empties its cache once the change has
//   committed, whoever made it (another instance, the CLI);
// - this instance empties it after each of its own write units, so its own change is seen by
//   its very next read without waiting for the notification;
// - nothing is cached until the LISTEN is confirmed, and it empties again whenever the listening
//   connection is re-established (postgres.js re-listens after a reconnect), since notifications
//   sent while it was down are lost;
// - a read that started before an emptying never fills the cache with what it read.
// Another instance's change reaches this one's cache when its notification arrives: on one
// database that is the time of a local round trip after the commit (docs/postgresql.md).

export const CATALOG_CHANNEL = "kasa_catalog";

/** Entries per cached operation; past it the map starts over (a cheap bound, as on SQLite). */
const MAX_ENTRIES = 10_000;

/** A cached read by one string key. */
export type Memo<R> = ((key: string) => Promise<R>) & {
  /**
   * The same read inside a batch of units (unit-repos-pg.ts): `read` goes through the batch's
   * transaction; once `bypass()` is true (the transaction may have changed the catalog) the cache
   * is neither read nor filled, so the batch sees its own changes.
   */
  through(read: (key: string) => Promise<R>, bypass: () => boolean): (key: string) => Promise<R>;
};

export type PgCatalogCache = {
  memo<R>(read: (key: string) => Promise<R>): Memo<R>;
  /** Empties every cached read (a local batch changed the catalog, or a notification came). */
  invalidate(): void;
};

export function pgCatalogCache(sql: postgres.Sql): PgCatalogCache {
  const maps: Map<string, unknown>[] = [];
  let generation = 0;
  let listening: "no" | "starting" | "yes" = "no";
  const invalidate = (): void => {
    generation += 1;
    for (const m of maps) m.clear();
  };
  const listen = (): void => {
    if (listening !== "no") return;
    listening = "starting";
    sql
      .listen(
        CATALOG_CHANNEL,
        () => invalidate(),
        () => {
          invalidate();
          listening = "yes";
        },
      )
      .catch(() => {
        // Not listening (a closed pool, a database that refuses LISTEN): read through, try later.
        listening = "no";
      });
  };
  const cachedRead = async <R>(map: Map<string, R>, key: string, read: (key: string) => Promise<R>, bypass: () => boolean): Promise<R> => {
    listen();
    if (listening === "yes" && !bypass() && map.has(key)) return map.get(key) as R;
    const startedAt = generation;
    const value = await read(key);
    if (listening === "yes" && startedAt === generation && !bypass()) {
      if (map.size >= MAX_ENTRIES) map.clear();
      map.set(key, typeof value === "object" && value !== null ? (Object.freeze(value) as R) : value);
    }
    return value;
  };
  const never = () => false;
  return {
    invalidate,
    memo<R>(read: (key: string) => Promise<R>): Memo<R> {
      const map = new Map<string, R>();
      maps.push(map as Map<string, unknown>);
      const cached = (key: string) => cachedRead(map, key, read, never);
      return Object.assign(cached, {
        through: (inBatch: (key: string) => Promise<R>, bypass: () => boolean) => (key: string) => cachedRead(map, key, inBatch, bypass),
      });
    },
  };
}
