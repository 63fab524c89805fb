import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { migrateToPostgresCommand } from "../../cli/commands/migrate-to-postgres";
import { ManualClock } from "../../src/clock";
import { DAY_MS } from "../../src/limits";
import { copyFromSqlite, openCopyTarget } from "../../src/store/postgres/copy-from-sqlite";
import { inBothSchemas, neverAnalyzed, tableRows as pgTableRows } from "../../src/store/postgres/inspect";
import { connectPg } from "../../src/store/postgres/pg";
import { openPostgresStore, type PgStore } from "../../src/store/postgres/pg-store";
import { MasterKeyError } from "../../src/store/secret-box";
import { openDb } from "../../src/store/sqlite/db";
import { readSnapshot } from "../../src/store/sqlite/export-rows";
import { tableColumns, tableRows as sqliteTableRows, writeForeignDatabase } from "../../src/store/sqlite/inspect";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store";
import type { NewPayment } from "../../src/store/rows-money";
import { runError, runJson } from "../cli/cli-run";
import { T0 } from "../support/harness";
import { capture, kasaProcess } from "../support/kasa-process";
import { MONEY_SEED } from "../support/money-fixtures";
import { freshDatabase } from "../support/pg-cluster";

// Product 22: `kasa migrate-to-postgres --from FILE --to URL` copies a SQLite database into an
// empty PostgreSQL database, all or nothing; the copy holds every row of every table as the file
// has it (flags as booleans), sealed secrets stay sealed and open with the same master key.

const KEY = Buffer.alloc(32, 7);

let dir: string;
let file: string;
const cleanups: Array<() => Promise<void>> = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kasa-migrate-"));
  file = join(dir, "kasa.db");
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

async function database(): Promise<string> {
  const db = await freshDatabase(inject("pgUrl"));
  cleanups.push(db.drop);
  return db.url;
}

async function openPg(url: string, masterKey: Buffer | null = KEY): Promise<PgStore> {
  const store = await openPostgresStore(url, { masterKey });
  cleanups.push(() => store.close());
  return store;
}

const base = (code: string, partnerTxCode: string, atMs: number): NewPayment => ({
  code,
  partnerId: "ptn_test",
  terminalId: "T-1",
  connectionId: "vpos-1",
  partnerTxCode,
  channel: "api",
  linkId: null,
  amount: 1_234,
  principal: 1_234,
  currency: "TRY",
  installment: 1,
  description: null,
  returnUrl: null,
  paymentRef: `ref_${code}`,
  expiresAtMs: atMs + 1_800_000,
  createdAtMs: atMs,
});

/**
 * A database the service wrote: captures, refunds (credit and void), a payment left open, day ends
 * with payout batches, webhook deliveries and their attempts, the sandbox clock, panel users,
 * sessions and audit rows; then sealed with a master key (webhook secrets encrypted at rest).
 */
async function serviceDatabase(path: string): Promise<void> {
  const clock = new ManualClock(T0);
  const k = await kasaProcess({ path, clock, seed: MONEY_SEED, mode: "sandbox" });
  try {
    const first = await capture(k, { amount: 10_000 });
    const second = await capture(k, { amount: 25_000 });
    await capture(k, { amount: 7_500, terminalId: "T-DIRECT" });
    expect((await k.post(`/v1/payments/${first}/refunds/credit`, { amount: 2_500, partnerRefundCode: "R-1" })).status).toBe(201);
    expect((await k.post(`/v1/payments/${second}/refunds/void`, { partnerRefundCode: "V-1" })).status).toBe(201);
    const open = await k.post("/v1/payments", {
      amount: 999,
      partnerTxCode: "left-open",
      terminalId: "T-1",
      returnUrl: "https://shop.example/done",
    });
    expect(open.status).toBe(201);
    expect((await k.post("/v1/payment-links", { amount: 4_200, terminalId: "T-1" })).status).toBe(201);
    expect((await k.post("/sandbox/clock", { advanceSeconds: (2 * DAY_MS) / 1000 })).status).toBe(200);
    await capture(k, { amount: 3_000 });
    await k.store.write(async (tx) => {
      const user = {
        id: "pu_migrate1",
        partnerId: "ptn_test",
        email: "owner@shop.example",
        role: "admin" as const,
        passwordHash: "$scrypt$not-a-real-hash",
        status: "active" as const,
        failedLogins: 1,
        lockedUntilMs: null,
        createdAtMs: T0,
        updatedAtMs: T0,
      };
      await tx.panelUsers.insert(user);
      await tx.acceptance.setHold({ partnerId: "ptn_other", reason: "admin_hold", sinceMs: T0 });
      await tx.acceptance.upsertAgreement({
        partnerId: "ptn_test",
        agreementCode: "MSA",
        version: "2",
        agreementName: "Merchant agreement",
        requirement: "consent",
        kind: "renewal",
        deadlineAtMs: T0 + 30 * DAY_MS,
        acceptedAtMs: null,
        createdAtMs: T0,
      });
      await tx.panelSessions.insert({ idHash: "sess-hash-1", userId: user.id, csrfToken: "csrf-1", createdAtMs: T0, lastSeenAtMs: T0 });
      // Reconciliation (docs/reconciliation.md): a stored run with a finding, a recorded repair, a run lease.
      const finding = { class: "unknown" as const, paymentCode: first, attemptId: null, refundId: null, kasaStatus: "captured" };
      await tx.reconcile.saveRun(
        { id: "rec_migrate1", connectionId: "vpos-1", day: "2026-03-01", startedAtMs: T0, finishedAtMs: T0, counts: '{"unknown":1}' },
        [
          {
            ...finding,
            kasaAmount: 10_000,
            bankStatus: "unknown",
            bankAmount: null,
            bankReference: null,
            repairAction: null,
            repairOutcome: null,
          },
        ],
      );
      const attemptId = (await tx.attempts.byPayment(first))[0]!.id;
      await tx.reconcile.recordRepair({
        attemptId,
        connectionId: "vpos-1",
        action: "void",
        amount: 10_000,
        captureReference: attemptId,
        createdAtMs: T0,
      });
      await tx.reconcile.takeLease("vpos-1", "ins_migrate", T0, T0 + 1);
      await tx.loginFailures.insert("owner@shop.example", "203.0.113.5", T0);
      for (const [i, action] of ["login", "payments.view", "refund.create"].entries())
        await tx.panelAudit.insert({
          partnerId: "ptn_test",
          atMs: T0 + i,
          userId: user.id,
          email: user.email,
          action,
          target: null,
          outcome: "ok",
          ip: "203.0.113.7",
        });
    });
  } finally {
    await k.close();
  }
  const sealing = await openSqliteStore(path, { masterKey: KEY });
  await sealing.close();
}

/** Every table of the file, each as a sorted list of its rows (keys in name order): what the copy must equal. */
async function sqliteDump(path: string): Promise<Record<string, string[]>> {
  const store = await openSqliteStore(path, { masterKey: KEY });
  try {
    const tables = [...new Set(tableColumns(store).map((c) => c.table))].filter((t) => t !== "sqlite_sequence");
    return Object.fromEntries(tables.map((t) => [t, canon(sqliteTableRows(store, t))]));
  } finally {
    await store.close();
  }
}

/** The same dump of the PostgreSQL database (flags as 0/1), without the schema digest's meta row. */
async function pgDump(url: string, tables: string[]): Promise<Record<string, string[]>> {
  const sql = connectPg(url, 1);
  try {
    const out: Record<string, string[]> = {};
    for (const t of tables) {
      const rows = (await pgTableRows(sql, t)).filter((r) => !(t === "meta" && r.key === "pg_schema"));
      // PostgreSQL-only columns (connection_usage.shard) are not in the file: the copy leaves their default.
      out[t] = canon(rows.map((r) => Object.fromEntries(Object.entries(r).filter(([c]) => inBothSchemas(t, c)))));
    }
    return out;
  } finally {
    await sql.end();
  }
}

const canon = (rows: Array<Record<string, unknown>>): string[] =>
  rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b))))).sort();

type Report = { ok: boolean; to: string; tables: Array<{ table: string; rows: number }>; rows: number };

describe("product 22: kasa migrate-to-postgres", () => {
  it("copies every row of every table; secrets stay sealed and open with the same key; a second run is refused and changes nothing", async () => {
    await serviceDatabase(file);
    const source = await sqliteDump(file);
    const tables = Object.keys(source);
    // Something in every table.
    expect(tables.filter((t) => source[t]!.length === 0)).toEqual([]);
    const url = await database();

    const report = await runJson<Report>(migrateToPostgresCommand, ["--from", file, "--to", url]);
    expect(report.ok).toBe(true);
    expect(Object.fromEntries(report.tables.map((t) => [t.table, t.rows]))).toEqual(
      Object.fromEntries(tables.map((t) => [t, source[t]!.length])),
    );
    expect(report.rows).toBe(tables.reduce((n, t) => n + source[t]!.length, 0));
    const copied = await pgDump(url, tables);
    expect(copied).toEqual(source);
    expect(source.partners!.join()).toContain("kasa-enc:v1:");

    const store = await openPg(url);
    expect((await store.q.partners.get("ptn_test"))?.webhookSecret).toBe("whsec_test_secret");
    expect(await store.q.meta.get("sandbox.clock_offset_ms")).toBeDefined();
    await expect(openPostgresStore(url, { masterKey: Buffer.alloc(32, 8) })).rejects.toBeInstanceOf(MasterKeyError);

    const again = await runError(migrateToPostgresCommand, ["--from", file, "--to", url]);
    expect(again.exitCode).toBe(1);
    expect(again.message).toMatch(/already holds kasa data \(.*payments.*\): nothing copied, a copy never merges$/);
    expect(again.message).not.toContain("\n");
    expect(await pgDump(url, tables)).toEqual(source);
  });

  it("panel_audit's identity continues after the copied rows; kasa's triggers count again after the copy", async () => {
    await serviceDatabase(file);
    const url = await database();
    await runJson(migrateToPostgresCommand, ["--from", file, "--to", url]);
    const store = await openPg(url);
    const [newest] = await store.q.panelAudit.page("ptn_test", null, 1);
    expect(newest?.seq).toBe(3);
    await store.write(
      async (tx) =>
        await tx.panelAudit.insert({
          partnerId: "ptn_test",
          atMs: T0 + 10,
          userId: null,
          email: "who@shop.example",
          action: "login",
          target: null,
          outcome: "unknown_user",
          ip: "203.0.113.8",
        }),
    );
    expect((await store.q.panelAudit.page("ptn_test", null, 1))[0]?.seq).toBe(4);

    const initiated = async () => (await store.q.metrics.counts("payment")).find((c) => c.label === "initiated")?.n ?? 0;
    const before = await initiated();
    await store.write(async (tx) => await tx.payments.insert(base("pay_after_copy_000001", "AFTER-1", T0 + 3 * DAY_MS)));
    expect(await initiated()).toBe(before + 1);
  });

  it("copies page by page (a page of 2 rows): the same database as one page", async () => {
    await serviceDatabase(file);
    const source = await sqliteDump(file);
    const url = await database();
    const db = await openDb(file);
    const snapshot = readSnapshot(db);
    const sql = await openCopyTarget(url);
    try {
      const report = await copyFromSqlite(sql, snapshot, { pageSize: 2 });
      expect(report.rows).toBe(Object.values(source).reduce((n, rows) => n + rows.length, 0));
    } finally {
      snapshot.close();
      db.close();
      await sql.end();
    }
    expect(await pgDump(url, Object.keys(source))).toEqual(source);
  });

  it("analyzes the tables it filled and leaves an empty one unanalyzed, so the planner does not take it for empty for good", async () => {
    // A new file: the catalog is empty too, only the schema's own rows are there.
    const fresh = await openSqliteStore(file, { masterKey: KEY });
    await fresh.close();
    const url = await database();
    const report = await runJson<Report>(migrateToPostgresCommand, ["--from", file, "--to", url]);
    const sql = connectPg(url, 1);
    try {
      const never = await neverAnalyzed(sql);
      expect(never).toContain("payments");
      const filled = report.tables.filter((t) => t.rows > 0).map((t) => t.table);
      expect(filled.length).toBeGreaterThan(0);
      expect(filled.filter((t) => never.includes(t))).toEqual([]);
    } finally {
      await sql.end();
    }
  });

  it("copies one snapshot of the file: a row a running server writes after the read began is not in the copy", async () => {
    await serviceDatabase(file);
    const url = await database();
    const db = await openDb(file);
    const snapshot = readSnapshot(db);
    const server = await openSqliteStore(file, { masterKey: KEY });
    await server.write(async (tx) => await tx.meta.set("written.after", "1"));
    await server.close();
    const sql = await openCopyTarget(url);
    try {
      await copyFromSqlite(sql, snapshot);
    } finally {
      snapshot.close();
      db.close();
      await sql.end();
    }
    expect((await sqliteDump(file)).meta!.join()).toContain("written.after");
    expect(await (await openPg(url)).q.meta.get("written.after")).toBeUndefined();
  });

  it("all or nothing: a row PostgreSQL refuses (a NUL in text) leaves no kasa row behind, in one line", async () => {
    await serviceDatabase(file);
    const sqlite = await openSqliteStore(file, { masterKey: KEY });
    await sqlite.write(async (tx) => await tx.payments.insert({ ...base("pay_nul_0000000000001", "NUL-1", T0), description: "a\u0000b" }));
    await sqlite.close();
    const source = await sqliteDump(file);
    const url = await database();

    const failed = await runError(migrateToPostgresCommand, ["--from", file, "--to", url]);
    expect(failed.exitCode).toBe(1);
    expect(failed.message).toMatch(/^copy into postgres:\/\/.* failed, nothing was kept: /);
    expect(failed.message).not.toContain("\n");
    const left = await pgDump(url, Object.keys(source));
    expect(Object.entries(left).filter(([t, rows]) => t !== "catalog_version" && rows.length > 0)).toEqual([]);
  });

  it("refuses a missing file, a file that is not kasa's and a --to that is not a PostgreSQL URL, in one line", async () => {
    const url = await database();
    expect(await runError(migrateToPostgresCommand, ["--from", join(dir, "nope.db"), "--to", url])).toEqual({
      message: `no file at ${join(dir, "nope.db")}`,
      exitCode: 1,
    });
    await writeForeignDatabase(file);
    expect(await runError(migrateToPostgresCommand, ["--from", file, "--to", url])).toEqual({
      message: `${file} is not a kasa database`,
      exitCode: 1,
    });
    expect((await runError(migrateToPostgresCommand, ["--from", file, "--to", join(dir, "other.db")])).exitCode).toBe(2);
    expect((await runError(migrateToPostgresCommand, ["--to", url])).exitCode).toBe(2);
  });
});
