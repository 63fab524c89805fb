import { describe, expect, it } from "vitest";
import { paymentsCommand } from "../../cli/commands/payments";
import { moneyDb, runError, runHuman, runJson } from "./cli-run";

type Payment = Record<string, unknown> & { paymentCode: string };

describe("product 14: kasa payments list", () => {
  it("--json lists payments newest first across partners", async () => {
    const file = await moneyDb();
    const out = await runJson<Payment[]>(paymentsCommand, ["list", "--db", file]);
    expect(out.map((p) => p.paymentCode)).toEqual(["pay_cli0000000000000003", "pay_cli0000000000000002", "pay_cli0000000000000001"]);
    expect(out[2]).toEqual({
      paymentCode: "pay_cli0000000000000001",
      partnerId: "ptn_test",
      terminalId: "T-1",
      partnerTxCode: "PL-pl_cli0000000000000001-1",
      channel: "link",
      paymentLinkId: "pl_cli0000000000000001",
      status: "captured",
      amount: 10_000,
      installmentCount: 1,
      maskedPan: "400000******0009",
      commissionAmount: 199,
      netToPartner: 9_801,
      expectedValueDate: "2026-03-03",
      refundedAmount: 1000,
      capturedAt: "2026-03-02T09:00:20.000Z",
      createdAt: "2026-03-02T09:00:00.000Z",
    });
    expect(JSON.stringify(out)).not.toContain("ref_secret");
  });

  it("--partner, --status and --limit narrow the list", async () => {
    const file = await moneyDb();
    const codes = async (...flags: string[]) =>
      (await runJson<Payment[]>(paymentsCommand, ["list", ...flags, "--db", file])).map((p) => p.paymentCode.slice(-1));
    expect(await codes("--partner", "ptn_test")).toEqual(["2", "1"]);
    expect(await codes("--status", "captured")).toEqual(["1"]);
    expect(await codes("--partner", "ptn_test", "--status", "initiated")).toEqual(["2"]);
    expect(await codes("--limit", "1")).toEqual(["3"]);
  });

  it("human output shows amounts as TRY and times in Istanbul", async () => {
    const text = await runHuman(paymentsCommand, ["list", "--db", await moneyDb()]);
    expect(text).toMatch(/pay_cli0000000000000002\s+ptn_test\s+ORDER-2\s+initiated\s+2\.500,75 TL\s+3\s+-\s+-\s+02\.03\.2026 12:00/);
  });

  it.each([
    [["--limit", "0"], /^--limit: must be an integer from 1 to 200/],
    [["--limit", "ten"], /^--limit: must be an integer/],
    [["--status", "paid"], /--status/],
  ])("%j is a usage error (exit 2)", async (flags, message) => {
    expect(await runError(paymentsCommand, ["list", ...flags, "--db", await moneyDb()])).toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(message),
    });
  });
});

describe("product 14: kasa payments show", () => {
  it("--json prints the whole record with its refunds, never the paymentRef", async () => {
    const out = await runJson<Payment>(paymentsCommand, ["show", "pay_cli0000000000000001", "--db", await moneyDb()]);
    expect(out).toMatchObject({
      paymentCode: "pay_cli0000000000000001",
      status: "captured",
      amount: 10_000,
      principal: 10_000,
      currency: "TRY",
      cardBrand: "bonus",
      cardFamily: "credit",
      cardBank: "Demo Bank A",
      appliedRateBps: 199,
      appliedFixedFee: null,
      bankReference: "BR1",
      authCode: "A1",
      settledDay: "2026-03-02",
      payoutBatchId: "pob_cli0000000000000001",
      expiresAt: "2026-03-02T09:30:00.000Z",
      refunds: [
        { refundId: "rfd_cli0000000000000001", method: "credit", status: "approved", amount: 1000, createdAt: "2026-03-03T09:00:00.000Z" },
      ],
    });
    expect(Object.keys(out)).not.toContain("paymentRef");
    expect(JSON.stringify(out)).not.toContain("ref_secret");
  });

  it("an unknown code is one line, exit 1", async () => {
    expect(await runError(paymentsCommand, ["show", "pay_nope", "--db", await moneyDb()])).toEqual({
      message: "unknown payment pay_nope",
      exitCode: 1,
    });
  });
});
