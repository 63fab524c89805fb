import { describe, expect, it } from "vitest";
import { payoutsCommand } from "../../cli/commands/payouts";
import { moneyDb, runError, runHuman, runJson } from "./cli-run";

const BATCH = {
  payoutBatchId: "pob_cli0000000000000001",
  partnerId: "ptn_test",
  day: "2026-03-03",
  amount: 8801,
  status: "paid_out",
  createdAt: "2026-03-03T09:00:00.000Z",
  updatedAt: "2026-03-03T09:00:00.000Z",
  reference: null,
};

describe("product 14: kasa payouts list|show", () => {
  it("list --json; --partner and --status narrow it", async () => {
    const file = await moneyDb();
    expect(await runJson(payoutsCommand, ["list", "--db", file])).toEqual([BATCH]);
    expect(await runJson(payoutsCommand, ["list", "--partner", "ptn_other", "--db", file])).toEqual([]);
    expect(await runJson(payoutsCommand, ["list", "--status", "failed", "--db", file])).toEqual([]);
  });

  it("show --json adds the payments paid and the refunds deducted", async () => {
    const out = await runJson<Record<string, unknown>>(payoutsCommand, ["show", BATCH.payoutBatchId, "--db", await moneyDb()]);
    expect(out).toMatchObject({
      ...BATCH,
      payments: [{ paymentCode: "pay_cli0000000000000001", netToPartner: 9_801 }],
      refunds: [{ refundId: "rfd_cli0000000000000001", amount: 1000 }],
    });
  });

  it("human list", async () => {
    const text = await runHuman(payoutsCommand, ["list", "--db", await moneyDb()]);
    expect(text).toMatch(/^pob_cli0000000000000001\s+ptn_test\s+2026-03-03\s+88,01 TL\s+paid_out\s+03\.03\.2026 12:00$/m);
  });

  it("errors: unknown batch exit 1, bad limit exit 2", async () => {
    const file = await moneyDb();
    expect(await runError(payoutsCommand, ["show", "pob_nope", "--db", file])).toEqual({
      message: "unknown payout batch pob_nope",
      exitCode: 1,
    });
    expect(await runError(payoutsCommand, ["list", "--limit", "201", "--db", file])).toMatchObject({ exitCode: 2 });
  });
});
