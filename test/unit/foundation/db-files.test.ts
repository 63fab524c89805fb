import { chmodSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSqliteStore as openStore } from "../../../src/store/sqlite/sqlite-store";

// Issue 15 item 10, product 23: the database, its WAL and its SHM are readable by their owner only
// (they hold webhook secrets and the simulated bank's signing secret). Runs on both drivers: the
// Node run opens with better-sqlite3, the Bun run with bun:sqlite.

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("product 23: database files are created owner-only", () => {
  it("a new database, its WAL and its SHM are 0600", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "kasa-modes-")), "kasa.db");
    const store = await openStore(path);
    await store.write(async (tx) => await tx.meta.set("probe", "1"));
    expect([modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    await store.close();
  });

  it("an existing world-readable database is tightened when opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kasa-modes-"));
    const path = join(dir, "kasa.db");
    // An older kasa left the files world-readable; the server still has them open.
    const older = await openStore(path);
    await older.write(async (tx) => await tx.meta.set("probe", "1"));
    for (const file of [path, `${path}-wal`, `${path}-shm`]) chmodSync(file, 0o644);
    const store = await openStore(path);
    await store.write(async (tx) => await tx.meta.set("probe", "2"));
    expect([modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    await store.close();
    await older.close();
  });
});
