import { afterEach, describe, expect, inject, it } from "vitest";
import { migrateToPostgresCommand } from "../../cli/commands/migrate-to-postgres";
import { openPostgresStore } from "../../src/store/postgres/pg-store";
import { withoutForeignKeys } from "../../src/store/sqlite/inspect";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store";
import type { Unit } from "../../src/store/store";
import { moneyDb, runJson } from "../cli/cli-run";
import { check, deliveries, delivery, PAY, PLANTED_DAMAGE, REPEATED_EVENTS } from "../support/check-damage";
import { freshDatabase } from "../support/pg-cluster";

// Product 19 `kasa check` on PostgreSQL (product 22): kasa's invariants, found in the same words
// as on SQLite. Differential: the same database (a SQLite file and its copy made by `kasa
// migrate-to-postgres`), the same damage planted in both through the test fixtures, and the two
// checks must print the same lines. What only a file needs (integrity_check, foreign_key_check,
// the typeof scan) has no counterpart: PostgreSQL refuses such rows as they are written.

const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

/** The money database of the CLI tests as a SQLite file and as its copy on PostgreSQL. */
async function bothDatabases(): Promise<{ file: string; url: string }> {
  const file = await moneyDb();
  const db = await freshDatabase(inject("pgUrl"));
  drops.push(db.drop);
  await runJson(migrateToPostgresCommand, ["--from", file, "--to", db.url]);
  return { file, url: db.url };
}

/** One unit of the test fixtures on both databases (foreign keys off on SQLite, as test/cli/maintenance.test.ts plants them). */
async function tamperBoth({ file, url }: { file: string; url: string }, unit: Unit<unknown>): Promise<void> {
  const sqlite = await openSqliteStore(file);
  try {
    await withoutForeignKeys(sqlite, () => sqlite.write(unit));
  } finally {
    await sqlite.close();
  }
  const pg = await openPostgresStore(url);
  try {
    await pg.write(unit);
  } finally {
    await pg.close();
  }
}

describe("product 19, 22: kasa check --db postgres://…", () => {
  it("a sound database: no findings, exit 0, as on SQLite", async () => {
    const both = await bothDatabases();
    expect(await check(both.url)).toEqual({ lines: ["ok: no findings"], failed: false });
    expect(await check(both.file)).toEqual({ lines: ["ok: no findings"], failed: false });
  });

  it.each([
    ...PLANTED_DAMAGE.map(([name, unit]) => [name, unit] as [string, Unit<unknown>]),
    ["an outbox row whose body is not JSON", deliveries(delivery("whd_a", "payment.captured", PAY, "{not json"))],
    [
      "an outbox row whose id is a number, or missing, or whose body is a list",
      deliveries(
        delivery("whd_a", "payment.captured", PAY, '{"id":5}'),
        delivery("whd_b", "payment.failed", PAY, '{"paymentCode":"x"}'),
        delivery("whd_c", "payment.expired", PAY, '["whd_c"]'),
      ),
    ],
    [
      "everything at once, in one order",
      async (tx) => {
        await tx.fixtures.patchPayment(PAY, { netToPartner: 1, refundedAmount: 7 });
        await tx.fixtures.patchPayment("pay_cli0000000000000002", { refundedAmount: 3 });
        await deliveries(
          delivery("whd_b", "payment.captured", PAY),
          delivery("whd_a", "payment.captured", PAY),
          delivery("whd_d", "payout.paid_out", "", '{"id":"whd_d","payoutBatchId":"pob_1"}'),
          delivery("whd_c", "payout.paid_out", "", '{"id":"whd_c","payoutBatchId":"pob_1"}'),
          delivery("whd_e", "link.expired", "", '{"id":"whd_e"}'),
          delivery("whd_f", "link.expired", "", '{"id":"whd_f"}'),
          delivery("whd_0", "payment.captured", PAY, "nope"),
        )(tx);
      },
    ],
  ] satisfies [string, Unit<unknown>][])("finds %s: the same lines as on SQLite, exit 1", async (_name, unit) => {
    const both = await bothDatabases();
    await tamperBoth(both, unit);
    const [pg, sqlite] = [await check(both.url), await check(both.file)];
    expect(sqlite.failed).toBe(true);
    expect(sqlite.lines.length).toBeGreaterThan(0);
    expect(pg).toEqual(sqlite);
  });

  it("repeated refund and test events are not duplicates, as on SQLite", async () => {
    const both = await bothDatabases();
    await tamperBoth(both, REPEATED_EVENTS);
    expect(await check(both.url)).toEqual({ lines: ["ok: no findings"], failed: false });
  });

  it("a foreign key to nothing cannot be planted: PostgreSQL refuses the row (no foreign_key_check needed)", async () => {
    const { url } = await bothDatabases();
    const pg = await openPostgresStore(url);
    try {
      await expect(pg.write(async (tx) => await tx.fixtures.patchPayment(PAY, { terminalId: "T-GONE" }))).rejects.toThrow(/foreign key/);
    } finally {
      await pg.close();
    }
    expect((await check(url)).failed).toBe(false);
  });
});
