import { openPostgresStore, type PgStore } from "./postgres/pg-store";
import { openSqliteStore, type SqliteStore } from "./sqlite/sqlite-store";
import type { OpenOptions } from "./store";

/** `--db` / `$KASA_DB` names a PostgreSQL database by URL (docs/postgresql.md), anything else is a SQLite file. */
export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db);

/**
 * Opens the store behind `--db` / `$KASA_DB`: a SQLite file, or a PostgreSQL URL (docs/postgresql.md),
 * both behind the same declared interface (src/store/store.ts).
 */
export function openStore(path: string, options: OpenOptions | "bun" | "node" = {}): Promise<OpenedStore> {
  if (!isPostgresUrl(path)) return openSqliteStore(path, options);
  return openPostgresStore(path, typeof options === "string" ? {} : options);
}

/** What `openStore` gives: the declared interface, and what only one kind of database offers (`kind` tells which). */
export type OpenedStore = SqliteStore | PgStore;

/**
 * The database as it may be printed: a URL's user info goes wholly (user name too, and a password
 * with an unencoded `@` in it: everything up to the last `@`), and so does any `password=`
 * parameter, so a secret never reaches a banner, an error or a log line. Not `new URL`: a failover
 * URL lists several hosts (`host1:5432,host2:5432`), which it refuses. Masking too much (a query
 * holding an `@`) is the safe way to be wrong.
 */
export function describeDb(db: string): string {
  const scheme = /^postgres(?:ql)?:\/\//i.exec(db)?.[0];
  if (scheme === undefined) return db;
  const rest = db.slice(scheme.length);
  const at = rest.lastIndexOf("@");
  const masked = at < 0 ? rest : `***@${rest.slice(at + 1)}`;
  return scheme + masked.replace(/([?&]password=)[^&]*/gi, "$1***");
}
