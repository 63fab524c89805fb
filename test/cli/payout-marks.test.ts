import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "citty";
import { describe, expect, it, vi } from "vitest";
import { payoutsCommand } from "../../cli/commands/payouts";
import { csvCell } from "../../cli/commands/payout-marks";
import { seedCommand } from "../../cli/commands/seed";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { TEST_SEED } from "../support/fixtures";
import { moneyDb, runError, runJson } from "./cli-run";

// Product 17: with a real bank's connection a day end's batch stays pending until an operator
// transfers it; `kasa payouts export` lists what to transfer, mark-paid / mark-failed record the
// answer with its webhook.

const BATCH = "pob_cli0000000000000001";

/** moneyDb() with its batch pending and its capture on an EST connection. */
async function pendingEstBatch(): Promise<string> {
  const db = await moneyDb();
  const dir = mkdtempSync(join(tmpdir(), "kasa-pay-"));
  const seed = join(dir, "seed.json");
  writeFileSync(
    seed,
    JSON.stringify({
      psps: TEST_SEED.psps,
      connections: [
        {
          id: "vpos-est",
          psp: "psp-1",
          bank: "est",
          est: {
            model: "3d",
            gateUrl: "https://bank.example/fim/est3Dgate",
            apiUrl: "https://bank.example/fim/api",
            clientId: "1",
            apiUser: "u",
            apiPassword: "p",
            storeKey: "k",
          },
        },
      ],
    }),
  );
  await runJson(seedCommand, [seed, "--db", db]);
  const store = await openStore(db);
  await store.write(async (tx) => {
    await tx.fixtures.forcePayoutStatus(BATCH, "pending");
    for (const p of await tx.operator.paymentsOfBatch(BATCH)) await tx.fixtures.patchPayment(p.code, { connectionId: "vpos-est" });
  });
  await store.close();
  return db;
}

async function outbox(db: string): Promise<string[]> {
  const store = await openStore(db);
  try {
    return (await store.q.webhooks.list({ partnerId: "ptn_test", status: null, limit: 100 })).map((d) => JSON.parse(d.body).type as string);
  } finally {
    await store.close();
  }
}

describe("product 17: kasa payouts export|mark-paid|mark-failed", () => {
  it("export lists the pending batch of an EST connection as CSV with the account and the amount in lira", async () => {
    const db = await pendingEstBatch();
    let out = "";
    const write = vi.spyOn(process.stdout, "write").mockImplementation((c) => {
      out += String(c);
      return true;
    });
    try {
      await runCommand(payoutsCommand, { rawArgs: ["export", "--db", db] });
    } finally {
      write.mockRestore();
    }
    expect(out.split("\r\n")).toEqual([
      "payoutBatchId,partnerId,partnerName,payoutAccount,day,amountKurus,amountTry",
      `${BATCH},ptn_test,Test Shop,TR000000000000000000000001,2026-03-03,8801,88.01`,
      "",
    ]);
  });

  it("export --format json; a batch of simulated-bank connections only is not listed (the bank pays it)", async () => {
    const est = await pendingEstBatch();
    expect(await runJson(payoutsCommand, ["export", "--format", "json", "--db", est])).toHaveLength(1);
    const sim = await moneyDb();
    expect(await runJson(payoutsCommand, ["export", "--format", "json", "--db", sim])).toEqual([]);
  });

  it("mark-paid records the reference, sends payout.paid_out once; a second mark is refused", async () => {
    const db = await pendingEstBatch();
    const out = await runJson(payoutsCommand, ["mark-paid", BATCH, "--reference", "EFT-2026-0303-1", "--db", db]);
    expect(out).toEqual({ payoutBatchId: BATCH, status: "paid_out", reference: "EFT-2026-0303-1", marked: true });
    expect(await outbox(db)).toEqual(["payout.paid_out"]);
    expect(await runError(payoutsCommand, ["mark-failed", BATCH, "--db", db])).toEqual({
      message: `payout batch ${BATCH} is paid_out, not pending`,
      exitCode: 1,
    });
    expect(await outbox(db)).toEqual(["payout.paid_out"]);
  });

  it("mark-failed sends payout.failed and gives the items back for the next day end", async () => {
    const db = await pendingEstBatch();
    expect(await runJson(payoutsCommand, ["mark-failed", BATCH, "--reference", "IBAN closed", "--db", db])).toMatchObject({
      status: "failed",
    });
    expect(await outbox(db)).toEqual(["payout.failed"]);
    const show = await runJson<{ payments: unknown[] }>(payoutsCommand, ["show", BATCH, "--db", db]);
    expect(show.payments).toEqual([]);
  });

  it("an unknown batch and a reference with control characters are one-line errors", async () => {
    const db = await pendingEstBatch();
    expect((await runError(payoutsCommand, ["mark-paid", "pob_nope", "--db", db])).message).toBe("unknown payout batch pob_nope");
    expect((await runError(payoutsCommand, ["mark-paid", BATCH, "--reference", "a\u0007b", "--db", db])).message).toContain("--reference");
  });

  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["=SUM(A1)", "'=SUM(A1)"],
    ["+90", "'+90"],
    [null, ""],
  ])("csv cell %j is written %s", (value, cell) => expect(csvCell(value)).toBe(cell));
});
