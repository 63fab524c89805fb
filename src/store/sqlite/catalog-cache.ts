import type { Db } from "./db-types";

// Reads every API request makes (the key by hash, its partner, the terminal, its connection and
// PSP) served from memory while nothing changed them (issue 17). Exact, never time-based: the
// `catalog_version` row is bumped by triggers in the very transaction that changes those tables,
// whoever writes (this server, the CLI, another process), so each cached read first compares one
// integer with the version the cache was filled at: outside units of work once per macrotask (a
// request's auth reads its key and partner in one; since units became async, a request's reads
// span many microtasks, and comparing once per microtask cost a statement per read), inside a unit
// at every read (the unit may have just changed the catalog itself), and again after every unit
// (`inUnit(false)`), so a read that follows a commit in the same macrotask compares anew. A unit that changed the catalog and then
// rolled back could restore an old version number over newer cached rows, so the store empties
// the caches on every rollback (`reset`).

/** Entries per cached operation; past it the map starts over (a cheap bound, no LRU bookkeeping). */
const MAX_ENTRIES = 10_000;

export type CatalogCache = {
  /** Wraps a read by one string key; `undefined` answers are cached too (an unknown key stays unknown). */
  memo<R>(read: (key: string) => R): (key: string) => R;
  reset(): void;
  /** While a unit of work runs, every cached read compares the version. */
  inUnit(running: boolean): void;
};

export function catalogCache(db: Db): CatalogCache {
  const maps: Map<string, unknown>[] = [];
  let filledAt = -1;
  // True while the current macrotask has compared the version; the next one clears it.
  let checked = false;
  let strict = false;
  const stale = (): void => {
    checked = false;
  };
  const reset = (): void => {
    filledAt = -1;
    for (const m of maps) m.clear();
  };
  const current = (): void => {
    if (checked && !strict) return;
    if (!checked) setImmediate(stale);
    checked = true;
    const version = db.prepare("SELECT version FROM catalog_version WHERE id = 1").get<{ version: number }>()?.version ?? -1;
    if (version !== filledAt) {
      for (const m of maps) m.clear();
      filledAt = version;
    }
  };
  return {
    memo<R>(read: (key: string) => R): (key: string) => R {
      const map = new Map<string, R>();
      maps.push(map as Map<string, unknown>);
      return (key) => {
        current();
        if (map.has(key)) return map.get(key) as R;
        const value = read(key);
        if (map.size >= MAX_ENTRIES) map.clear();
        map.set(key, typeof value === "object" && value !== null ? Object.freeze(value) : value);
        return value;
      };
    },
    reset,
    inUnit(running) {
      strict = running;
      checked = false;
    },
  };
}
