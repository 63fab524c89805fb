import { describe, expect, it } from "vitest";
import { refundsCommand } from "../../cli/commands/refunds";
import { moneyDb, runError, runHuman, runJson } from "./cli-run";

describe("product 14: kasa refunds show", () => {
  it("--json is interface 2.4's record plus payment, partner, code and batch", async () => {
    expect(await runJson(refundsCommand, ["show", "rfd_cli0000000000000001", "--db", await moneyDb()])).toEqual({
      refundId: "rfd_cli0000000000000001",
      paymentCode: "pay_cli0000000000000001",
      partnerId: "ptn_test",
      partnerRefundCode: "R-1",
      method: "credit",
      status: "approved",
      amount: 1000,
      procReturnCode: "00",
      authCode: "RA1",
      errMsg: null,
      bankReference: "RB1",
      payoutBatchId: "pob_cli0000000000000001",
      createdAt: "2026-03-03T09:00:00.000Z",
      updatedAt: "2026-03-03T09:00:00.000Z",
    });
  });

  it("human output", async () => {
    const text = await runHuman(refundsCommand, ["show", "rfd_cli0000000000000001", "--db", await moneyDb()]);
    expect(text).toMatch(/^amount\s+10,00 TL$/m);
    expect(text).toMatch(/^created\s+03\.03\.2026 12:00$/m);
  });

  it("an unknown refund is one line, exit 1", async () => {
    expect(await runError(refundsCommand, ["show", "rfd_nope", "--db", await moneyDb()])).toEqual({
      message: "unknown refund rfd_nope",
      exitCode: 1,
    });
  });
});
