import { openPostgresStore, type PgStore } from "./postgres/pg-store";
import { openSqliteStore, type SqliteStore } from "./sqlite/sqlite-store";
import type { OpenOptions } from "./store";

/** `--db` / `$KASA_DB` names a PostgreSQL database by URL (product 22), anything else is a SQLite file. */
export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db);

/**
 * Opens the store behind `--db` / `$KASA_DB`: a SQLite file, or a PostgreSQL URL (product 22),
 * both behind the same declared interface (src/store/store.ts).
 */
export function openStore(path: string, options: OpenOptions | "bun" | "node" = {}): Promise<OpenedStore> {
  if (!isPostgresUrl(path)) return openSqliteStore(path, options);
  return openPostgresStore(path, typeof options === "string" ? {} : options);
}

/** What `openStore` gives: the declared interface, and what only one kind of database offers (`kind` tells which). */
export type OpenedStore = SqliteStore | PgStore;

/** The database as it may be printed: a URL's password never reaches a banner or a log line. */
export function describeDb(db: string): string {
  if (!isPostgresUrl(db)) return db;
  // Not `new URL`: a failover URL lists several hosts (`host1:5432,host2:5432`), which it refuses.
  return db.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@]*@/i, "$1:***@");
}
