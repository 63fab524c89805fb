import { existsSync } from "node:fs";
import { consola } from "consola";
import { systemClock, type Clock } from "../src/clock";
import type { Log } from "../src/deps";
import { isApiError } from "../src/errors";
import { createIds, type Ids } from "../src/ids";
import { sandboxClockFor } from "../src/sandbox-clock";
import { describeDb, isPostgresUrl, openStore } from "../src/store/open";
import type { OpenedStore as Store } from "../src/store/open";
import { CliError } from "./cli-error";
import { escapeControls, escapeControlsKeepLines } from "./escape";
import { dbPasswordArg, resolveDbPassword } from "./db-password";
import { masterKeyArg, resolveMasterKey } from "./master-key";
import { MasterKeyError } from "../src/store/secret-box";
import type { Sensitive } from "../src/sensitive";

/** Arguments every operator command shares (docs/operating.md, The operator CLI). */
export const commonArgs = {
  db: { type: "string", description: "database file or postgres:// URL (default $KASA_DB, then ./kasa.db)", valueHint: "FILE|URL" },
  json: { type: "boolean", description: "print machine-readable JSON" },
  ...masterKeyArg,
  ...dbPasswordArg,
} as const;

export const resolveDbPath = (db: unknown): string => (typeof db === "string" && db !== "" ? db : process.env.KASA_DB || "./kasa.db");

/**
 * What a domain service may need from a command: the store, the clock, ids and a log. There are no
 * timers here: what a command queues (webhooks) the running server's sweep sends.
 */
export type CliContext = { store: Store; clock: Clock; ids: Ids; log: Log };

/** A service's log lines, on the operator's terminal. */
const cliLog: Log = { info: consola.info, warn: consola.warn, error: consola.error };

/**
 * Opens the server's database for one command (safe while it runs: WAL, short transactions,
 * busy_timeout). The sandbox's clock offset is honoured so operator times match the service's.
 */
export async function withStore<T>(
  args: { db?: unknown; "master-key-file"?: unknown; "db-password-file"?: unknown },
  fn: (ctx: CliContext) => Promise<T> | T,
  { create = false }: { create?: boolean } = {},
): Promise<T> {
  const path = resolveDbPath(args.db);
  // Only `seed` may start a database; a mistyped --db must not silently answer from an empty one.
  if (!create && path !== ":memory:" && !isPostgresUrl(path) && !existsSync(path)) {
    throw new CliError(`no database at ${path} (run kasa seed or kasa serve first)`);
  }
  const store = await openStoreOrExplain(path, resolveMasterKey(args, path), resolveDbPassword(args));
  try {
    const clock = (await store.q.meta.get("sandbox.clock_offset_ms")) === undefined ? systemClock : await sandboxClockFor(store);
    return await fn({ store, clock, ids: createIds(clock), log: cliLog });
  } catch (error) {
    // A sealed secret read without (or with another) master key: one line, exit 1.
    if (error instanceof MasterKeyError) throw new CliError(error.message);
    // A domain service's refusal (unknown partner, unknown agreement, …) is the operator's
    // mistake: its message on one line, exit 1, as the services tell the API's callers.
    if (isApiError(error)) throw new CliError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

/** Opens the database with its master key; a wrong or missing key is one line, exit 1. */
export async function openStoreOrExplain(
  path: string,
  masterKey: Buffer | null,
  pgPassword: Sensitive<string> | null = null,
): Promise<Store> {
  try {
    return await openStore(path, { masterKey, pgPassword });
  } catch (error) {
    if (error instanceof MasterKeyError) throw new CliError(error.message);
    // PostgreSQL unreachable, refused or unknown database: one line naming it (never its password).
    if (isPostgresUrl(path))
      throw new CliError(`cannot open ${describeDb(path)}: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

/** `--json` prints stable JSON; otherwise the human form (tables, sentences) through consola. */
export function output(args: { json?: unknown }, data: unknown, human: () => string): void {
  if (args.json) process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  else consola.log(escapeControlsKeepLines(human()));
}

/** Aligned text table for human output. */
export function table(rows: Array<Record<string, unknown>>, columns?: string[]): string {
  if (rows.length === 0) return "(none)";
  const cols = columns ?? Object.keys(rows[0]!);
  const cell = (v: unknown) => (v === null || v === undefined ? "-" : escapeControls(String(v)));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(cols), line(widths.map((w) => "-".repeat(w))), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join("\n");
}

export function requireArg(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "") throw new CliError(`missing --${name}`, 2);
  return value;
}
