import { chmodSync, closeSync, existsSync, openSync } from "node:fs";
import type { Db } from "./db-types";

export const isBunRuntime = (): boolean => typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

/** Owner read/write only: the files hold webhook secrets and the simulated bank's signing key. */
export const DB_FILE_MODE = 0o600;

/**
 * docs/decisions.md, Hardening: the database file is created (or tightened to) owner-only before SQLite opens it;
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
