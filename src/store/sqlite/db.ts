import { chmodSync, closeSync, existsSync, openSync } from "node:fs";
/**
 * The one driver interface. `bun:sqlite` backs the compiled binary and Bun test runs,
 * `better-sqlite3` backs Node test runs; only driver-*.ts import a driver.
 * Parameters are positional (`?`) and never `undefined` (pass null), so both drivers bind alike.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;

export interface Statement {
  run(...params: SqlValue[]): { changes: number };
  get<T = Record<string, unknown>>(...params: SqlValue[]): T | undefined;
  all<T = Record<string, unknown>>(...params: SqlValue[]): T[];
}

export interface Db {
  readonly driver: "bun" | "node";
  /** Prepared statements are cached per SQL text by the wrapper. */
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}

export const isBunRuntime = (): boolean => typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

/** Owner read/write only: the files hold webhook secrets and the simulated bank's signing key. */
export const DB_FILE_MODE = 0o600;

/**
 * Product 23: the database file is created (or tightened to) owner-only before SQLite opens it;
 * SQLite creates the WAL and SHM files with the main file's permissions, and any left by an older
 * run are tightened too.
 */
export function restrictDbFiles(path: string): void {
  if (path === ":memory:" || path === "") return;
  if (!existsSync(path)) closeSync(openSync(path, "a", DB_FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, DB_FILE_MODE);
}

/** Opens the database with the driver of the running runtime (or the one asked for). */
export async function openDb(path: string, driver: "bun" | "node" = isBunRuntime() ? "bun" : "node"): Promise<Db> {
  restrictDbFiles(path);
  if (driver === "bun") {
    const { openBunDb } = await import("./driver-bun");
    return openBunDb(path);
  }
  const { openNodeDb } = await import("./driver-node");
  return openNodeDb(path);
}
