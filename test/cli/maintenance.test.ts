import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { backupCommand, restoreCommand } from "../../cli/commands/maintenance";
import { indexRootPage, withoutForeignKeys, writeForeignDatabase } from "../../src/store/sqlite/inspect";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import type { Unit } from "../../src/store/store";
import { check, PAY, PLANTED_DAMAGE, REPEATED_EVENTS } from "../support/check-damage";
import { moneyDb, runError, runJson } from "./cli-run";

/** One unit of the test fixtures on a closed kasa database, foreign keys off so a test can plant any finding. */
async function tamper(db: string, unit: Unit<unknown>): Promise<void> {
  const store = await openStore(db);
  try {
    await withoutForeignKeys(store, () => store.write(unit));
  } finally {
    await store.close();
  }
}

describe("product 19 kasa check", () => {
  it("a sound database: no findings, exit 0", async () => {
    const db = await moneyDb();
    expect(await check(db)).toEqual({ lines: ["ok: no findings"], failed: false });
  });

  it.each([
    ...PLANTED_DAMAGE,
    [
      "a foreign key to nothing",
      async (tx) => await tx.fixtures.patchPayment(PAY, { terminalId: "T-GONE" }),
      /^foreign key: a row of payments points at a missing terminals row$/,
    ],
  ] satisfies [string, Unit<unknown>, RegExp][])("finds %s: one line, exit 1", async (_name, unit, line) => {
    const db = await moneyDb();
    await tamper(db, unit);
    const r = await check(db);
    expect(r.failed).toBe(true);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(line);
  });

  it("finds a value whose type is not its column's (issue 18: kasa never relies on SQLite's loose typing)", async () => {
    const db = await moneyDb();
    // A fraction of a kuruş: SQLite would keep the REAL in an INTEGER column; PostgreSQL would refuse it.
    await tamper(db, async (tx) => await tx.fixtures.patchPayment(PAY, { netToPartner: 9801.5 }));
    const r = await check(db);
    expect(r.failed).toBe(true);
    expect(r.lines).toContain("type: 1 value(s) of payments.net_to_partner are not INTEGER");
  });

  it("repeated refund and test events are not duplicates", async () => {
    const db = await moneyDb();
    await tamper(db, REPEATED_EVENTS);
    expect((await check(db)).failed).toBe(false);
  });

  it("finds a damaged index (integrity_check)", async () => {
    const db = await moneyDb();
    const store = await openStore(db);
    const { page: root, pageSize: size } = indexRootPage(store, "payments_by_partner");
    await store.close();
    // Garble the index's key bytes (the end of its page), as a torn write would: the table and the index disagree.
    const bytes = readFileSync(db);
    for (let i = root * size - size / 2; i < root * size; i++) bytes[i] = 0x41;
    writeFileSync(db, bytes);
    const r = await check(db);
    expect(r.failed).toBe(true);
    expect(r.lines.length).toBeGreaterThan(0);
    expect(r.lines.every((l) => l.startsWith("integrity: "))).toBe(true);
  });
});

describe("product 19 kasa backup", () => {
  it("writes a 0600 copy that passes check and holds every row, while another connection keeps writing", async () => {
    const db = await moneyDb();
    const writer = await openStore(db);
    let n = 0;
    let writing = true;
    const load = (async () => {
      while (writing) await writer.write(async (tx) => await tx.meta.set(`load.${++n}`, "x"));
    })();
    const file = join(dirname(db), "backup.db");
    await runJson(backupCommand, [file, "--db", db]);
    writing = false;
    await load;
    await writer.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await check(file)).failed).toBe(false);
    const copy = await openStore(file);
    expect(await copy.q.fixtures.paymentCount()).toBe(3);
    await copy.close();
  });

  it.each([
    [
      "a directory that does not exist",
      (dir: string) => join(dir, "no-such-dir", "b.db"),
      /^cannot write .*no-such-dir\/b\.db \(ENOENT\)$/,
    ],
    ["an existing file", (dir: string) => (writeFileSync(join(dir, "taken.db"), "keep"), join(dir, "taken.db")), /already exists/],
  ])("refuses %s: one line, exit 1, nothing changed", async (_name, pathFor, message) => {
    const db = await moneyDb();
    const file = pathFor(dirname(db));
    const before = existsSync(file) ? readFileSync(file, "utf8") : null;
    const err = await runError(backupCommand, [file, "--db", db]);
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain("\n");
    expect(existsSync(file) ? readFileSync(file, "utf8") : null).toBe(before);
  });
});

describe("product 19 kasa restore", () => {
  it("restores a backup into a new path; the result passes check", async () => {
    const db = await moneyDb();
    const file = join(dirname(db), "b.db");
    await runJson(backupCommand, [file, "--db", db]);
    const target = join(dirname(db), "restored.db");
    await runJson(restoreCommand, [file, "--db", target]);
    expect((await check(target)).failed).toBe(false);
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  it("replaces a stopped database", async () => {
    const db = await moneyDb();
    const file = join(dirname(db), "b.db");
    await runJson(backupCommand, [file, "--db", db]);
    await tamper(db, async (tx) => await tx.fixtures.deletePayments());
    await runJson(restoreCommand, [file, "--db", db]);
    const store = await openStore(db);
    expect(await store.q.fixtures.paymentCount()).toBe(3);
    await store.close();
  });

  it("refuses a database in use: exit 1, nothing changed", async () => {
    const db = await moneyDb();
    const file = join(dirname(db), "b.db");
    await runJson(backupCommand, [file, "--db", db]);
    const server = await openStore(db);
    await server.write(async (tx) => await tx.meta.set("marker", "live"));
    const err = await runError(restoreCommand, [file, "--db", db]);
    expect(err).toEqual({ exitCode: 1, message: `${db} is in use (stop kasa before restoring)` });
    expect(await server.q.meta.get("marker")).toBe("live");
    await server.close();
  });

  it.each([
    ["a text file", (f: string) => writeFileSync(f, "not a database at all, just words ".repeat(200)), /is not a kasa database/],
    ["another SQLite database", (f: string) => writeForeignDatabase(f), /is not a kasa database/],
    ["a corrupt kasa database", "corrupt" as const, /is (corrupt|not a kasa database or is corrupt)/],
  ])("refuses %s: exit 1, the target unchanged", async (_name, make: "corrupt" | ((f: string) => unknown), message) => {
    const db = await moneyDb();
    const file = join(dirname(db), "bad.db");
    if (make === "corrupt") {
      await runJson(backupCommand, [file, "--db", db]);
      const bytes = readFileSync(file);
      // Garble every page after the first: the header still says SQLite, the b-trees are gone.
      for (let i = 4096; i < bytes.length; i += 7) bytes[i] = 0xa5;
      writeFileSync(file, bytes);
    } else await make(file);
    const before = readFileSync(db);
    const err = await runError(restoreCommand, [file, "--db", db]);
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain("\n");
    expect(readFileSync(db).equals(before)).toBe(true);
  });
});
