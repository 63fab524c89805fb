import type postgres from "postgres";
import type { SecretBox } from "../secret-box";
import type { Repos } from "../store";
import type { Memo, PgCatalogCache } from "./catalog-cache-pg";
import type { Pg } from "./pg";
import { createPgRepos, lazyGroups } from "./pg-repos";
import type { RoomHolder } from "./room-reservations-pg";

// The catalog reads of every request (key, partner, terminal, connection, PSP) served from memory
// on PostgreSQL (catalog-cache-pg.ts), both outside units (`store.q`) and inside a batch of units
// (group-commit-pg.ts), where a create reads its terminal and connection. A batch's transaction
// sees its own uncommitted changes, which no other request may see, so once a unit of the batch
// calls anything that may change a catalog table (a method of the groups below other than the
// reads listed), the batch stops reading and filling the cache, and the cache is emptied when
// the batch ends (docs/postgresql.md, The catalog cache).

type CachedReads = {
  partner: Memo<Awaited<ReturnType<Repos["partners"]["get"]>>>;
  apiKey: Memo<Awaited<ReturnType<Repos["apiKeys"]["byHash"]>>>;
  psp: Memo<Awaited<ReturnType<Repos["catalog"]["psp"]>>>;
  connection: Memo<Awaited<ReturnType<Repos["catalog"]["connection"]>>>;
  terminal: Memo<Awaited<ReturnType<Repos["catalog"]["terminal"]>>>;
};

/** The groups whose writes can reach the tables that bump `catalog_version` (schema.sql). */
const CATALOG_GROUPS = ["secrets", "partners", "apiKeys", "catalog", "fixtures"] as const;
type CatalogGroup = (typeof CATALOG_GROUPS)[number];

/** Their methods that never change those tables: reads, the link counter (its trigger leaves the version alone), BINs. */
const LEAVES_CATALOG = new Set([
  "secrets.sealedBy",
  "secrets.bankSecret",
  "partners.get",
  "partners.list",
  "partners.nextLinkReference",
  "apiKeys.byHash",
  "apiKeys.get",
  "apiKeys.list",
  "catalog.psp",
  "catalog.connection",
  "catalog.terminal",
  "catalog.connections",
  "catalog.terminals",
  "catalog.bin",
  "catalog.binCount",
  "catalog.upsertBin",
]);

export function cachedReads(sql: postgres.Sql, box: SecretBox, cache: PgCatalogCache): CachedReads {
  const repos = createPgRepos(sql, box);
  return {
    partner: cache.memo(repos.partners.get),
    apiKey: cache.memo(repos.apiKeys.byHash),
    psp: cache.memo(repos.catalog.psp),
    connection: cache.memo(repos.catalog.connection),
    terminal: cache.memo(repos.catalog.terminal),
  };
}

/** `store.q`: the pool, with the catalog reads from memory. */
export function poolRepos(sql: postgres.Sql, box: SecretBox, reads: CachedReads, holder: RoomHolder): Repos {
  const repos = createPgRepos(sql, box, holder);
  return {
    ...repos,
    partners: { ...repos.partners, get: reads.partner },
    apiKeys: { ...repos.apiKeys, byHash: reads.apiKey },
    catalog: { ...repos.catalog, psp: reads.psp, connection: reads.connection, terminal: reads.terminal },
  };
}

export type BatchScope = {
  /** The repos of one unit of the batch, on the batch's transaction (or the unit's savepoint). */
  repos(tx: Pg): Repos;
  /** Whether a unit of the batch called something that may have changed the catalog. */
  changedCatalog(): boolean;
};

/** One per transaction of units: the catalog reads from memory until the batch may have changed the catalog. */
export function batchScope(box: SecretBox, reads: CachedReads, holder: RoomHolder): BatchScope {
  let changed = false;
  const bypass = () => changed;
  const marking = <G extends object>(name: CatalogGroup, group: G): G => {
    const out: Record<string, unknown> = {};
    for (const [method, fn] of Object.entries(group)) {
      out[method] =
        typeof fn !== "function" || LEAVES_CATALOG.has(`${name}.${method}`)
          ? fn
          : (...args: unknown[]) => {
              changed = true;
              return fn(...args);
            };
    }
    return out as G;
  };
  return {
    changedCatalog: bypass,
    repos(tx) {
      const repos = createPgRepos(tx, box, holder);
      // Groups made on first use, as createPgRepos's own: the catalog groups marking, three reads cached.
      const make = {} as { [K in keyof Repos]: () => Repos[K] };
      for (const name of Object.keys(repos) as (keyof Repos)[]) (make as Record<string, () => unknown>)[name] = () => repos[name];
      for (const name of CATALOG_GROUPS) (make as Record<CatalogGroup, () => object>)[name] = () => marking(name, repos[name]);
      make.partners = () => ({ ...marking("partners", repos.partners), get: reads.partner.through(repos.partners.get, bypass) });
      make.apiKeys = () => ({ ...marking("apiKeys", repos.apiKeys), byHash: reads.apiKey.through(repos.apiKeys.byHash, bypass) });
      make.catalog = () => ({
        ...marking("catalog", repos.catalog),
        psp: reads.psp.through(repos.catalog.psp, bypass),
        connection: reads.connection.through(repos.catalog.connection, bypass),
        terminal: reads.terminal.through(repos.catalog.terminal, bypass),
      });
      return lazyGroups<Repos>(make);
    },
  };
}
