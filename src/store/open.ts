import type { OpenOptions } from "./store";
import { openSqliteStore, type SqliteStore } from "./sqlite/sqlite-store";

/**
 * Opens the store behind `--db` / `$KASA_DB`: a SQLite file today (product 22 adds PostgreSQL
 * URLs beside it, behind the same interface, src/store/store.ts).
 */
export function openStore(path: string, options: OpenOptions | "bun" | "node" = {}): Promise<SqliteStore> {
  return openSqliteStore(path, options);
}

/** What `openStore` gives: the declared interface, and what only this kind of database offers (backup, query plans). */
export type OpenedStore = SqliteStore;
