import { closeSync, existsSync, openSync, renameSync, rmSync } from "node:fs";
import { defineCommand } from "citty";
import { openDb } from "../../src/store/sqlite/db";
import type { Db } from "../../src/store/sqlite/db-types";
import { inUseByOthers, invariantFindings, isKasaDb, sqliteFindings, vacuumInto } from "../../src/store/sqlite/maintenance-sql";
import type { OpenedStore } from "../../src/store/open";
import { CliError } from "../cli-error";
import { commonArgs, output, resolveDbPath, withStore } from "../context";

// docs/operating.md: backup, restore and check, the operator's side of keeping the one database safe.

/** Creates `file` empty with mode 0600 (refusing an existing file), so the copy is never readable by others. */
function createPrivateFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, "wx", 0o600);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CliError(
      code === "EEXIST" ? `${file} already exists (a backup never overwrites)` : `cannot write ${file} (${code ?? "error"})`,
    );
  }
  closeSync(fd);
}

/**
 * A SQLite file's maintenance: on PostgreSQL (docs/postgresql.md) copies and restores are PostgreSQL's own
 * tools' job (pg_dump, pg_restore, base backups and WAL archiving), so the command says so.
 */
function sqliteDb(store: OpenedStore, command: string, instead: string): Db {
  if (store.kind === "sqlite") return store.db;
  throw new CliError(`kasa ${command} works on a SQLite file; on PostgreSQL use ${instead} (docs/postgresql.md)`);
}

export const backupCommand = defineCommand({
  meta: {
    name: "backup",
    description:
      "Copy the database while the server runs (online, consistent; file mode 0600).\n\nExample: kasa backup /var/backups/kasa-2026-11-24.db --db /var/lib/kasa/kasa.db",
  },
  args: { file: { type: "positional", description: "new backup file (must not exist)", required: true }, ...commonArgs },
  run: async ({ args }) => {
    await withStore(args, ({ store }) => {
      const db = sqliteDb(store, "backup", "pg_dump");
      createPrivateFile(args.file);
      try {
        vacuumInto(db, args.file);
      } catch (error) {
        rmSync(args.file, { force: true });
        throw new CliError(`backup to ${args.file} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    output(args, { ok: true, file: args.file }, () => `backup written to ${args.file}`);
  },
});

/** Opens a file that claims to be a kasa database without changing it; refuses a non-kasa or corrupt one. */
export async function openVerified(file: string): Promise<Db> {
  if (!existsSync(file)) throw new CliError(`no file at ${file}`);
  const db = await openDb(file);
  try {
    if (!isKasaDb(db)) throw new CliError(`${file} is not a kasa database`);
    const findings = sqliteFindings(db);
    if (findings.length > 0) throw new CliError(`${file} is corrupt: ${findings[0]}`);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof CliError) throw error;
    throw new CliError(`${file} is not a kasa database or is corrupt (${error instanceof Error ? error.message : String(error)})`);
  }
}

export const restoreCommand = defineCommand({
  meta: {
    name: "restore",
    description:
      "Replace a stopped server's database with a checked backup.\n\nExample: kasa restore /var/backups/kasa-2026-11-24.db --db /var/lib/kasa/kasa.db",
  },
  args: { file: { type: "positional", description: "backup file", required: true }, ...commonArgs },
  run: async ({ args }) => {
    const target = resolveDbPath(args.db);
    const source = await openVerified(args.file);
    const staging = `${target}.restoring`;
    try {
      if (existsSync(target)) {
        const current = await openDb(target);
        const busy = inUseByOthers(current);
        current.close();
        if (busy) throw new CliError(`${target} is in use (stop kasa before restoring)`);
      }
      rmSync(staging, { force: true });
      createPrivateFile(staging);
      vacuumInto(source, staging);
    } catch (error) {
      rmSync(staging, { force: true });
      if (error instanceof CliError) throw error;
      throw new CliError(`restore into ${target} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      source.close();
    }
    // The old database's WAL must not be replayed onto the restored file.
    rmSync(`${target}-wal`, { force: true });
    rmSync(`${target}-shm`, { force: true });
    renameSync(staging, target);
    output(args, { ok: true, db: target }, () => `restored ${args.file} into ${target}`);
  },
});

export const checkCommand = defineCommand({
  meta: {
    name: "check",
    description:
      "Integrity, foreign keys, kasa's invariants; one line per finding, exit 1.\n\n" +
      "On PostgreSQL kasa's invariants only: PostgreSQL enforces foreign keys and column types itself.\n\n" +
      "Example: kasa check --db /var/lib/kasa/kasa.db",
  },
  args: { ...commonArgs },
  run: async ({ args }) => {
    const findings = await withStore(args, async ({ store }) => {
      // docs/postgresql.md: a PostgreSQL database has no file for kasa to check (docs/postgresql.md).
      if (store.kind === "postgres") return await store.invariantFindings();
      const db = store.db;
      const sqlite = sqliteFindings(db);
      // The invariants read rows a damaged file may not return whole; report SQLite's word first.
      return sqlite.length > 0 ? sqlite : invariantFindings(db);
    });
    output(args, { ok: findings.length === 0, findings }, () => (findings.length === 0 ? "ok: no findings" : findings.join("\n")));
    if (findings.length > 0) throw new CliError(`${findings.length} finding${findings.length === 1 ? "" : "s"}`);
  },
});
