import { describe, expect, it } from "vitest";
import { linksCommand } from "../../cli/commands/links";
import { moneyDb, runError, runHuman, runJson } from "./cli-run";

type Link = Record<string, unknown> & { id: string };

describe("product 14: kasa links list|show", () => {
  it("list --json prints link summaries; --partner and --status narrow them", async () => {
    const file = await moneyDb();
    expect(await runJson(linksCommand, ["list", "--db", file])).toEqual([
      {
        id: "pl_cli0000000000000001",
        partnerId: "ptn_test",
        partnerReference: 1,
        terminalId: "T-1",
        status: "completed",
        amount: 10_000,
        customerCommissionShareBps: 0,
        description: "Order 1",
        expiresAt: "2026-03-09T09:00:00.000Z",
        createdAt: "2026-03-02T08:59:00.000Z",
      },
    ]);
    expect(await runJson(linksCommand, ["list", "--partner", "ptn_other", "--db", file])).toEqual([]);
    expect(await runJson(linksCommand, ["list", "--status", "pending", "--db", file])).toEqual([]);
  });

  it("show --json is interface 2.1's record plus owner, terminal and payments", async () => {
    const out = await runJson<Link>(linksCommand, [
      "show",
      "pl_cli0000000000000001",
      "--base-url",
      "https://pay.example/",
      "--db",
      await moneyDb(),
    ]);
    expect(out).toMatchObject({
      id: "pl_cli0000000000000001",
      token: "tok_cli",
      url: "https://pay.example/l/tok_cli",
      status: "completed",
      amount: 10_000,
      allowedInstallmentCounts: [1, 3],
      items: [{ name: "Mug", note: null, amount: 10_000 }],
      payerName: null,
      partnerId: "ptn_test",
      terminalId: "T-1",
      payments: [{ paymentCode: "pay_cli0000000000000001", status: "captured" }],
    });
  });

  it("without --base-url the url is the path", async () => {
    const out = await runJson<Link>(linksCommand, ["show", "pl_cli0000000000000001", "--db", await moneyDb()]);
    expect(out.url).toBe("/l/tok_cli");
  });

  it("human show prints TRY amounts and the payments table", async () => {
    const text = await runHuman(linksCommand, ["show", "pl_cli0000000000000001", "--db", await moneyDb()]);
    expect(text).toMatch(/^amount\s+100,00 TL$/m);
    expect(text).toMatch(/^created\s+02\.03\.2026 11:59$/m);
    expect(text).toContain("pay_cli0000000000000001");
  });

  it("errors: unknown link exit 1, bad status exit 2", async () => {
    const file = await moneyDb();
    expect(await runError(linksCommand, ["show", "pl_nope", "--db", file])).toEqual({
      message: "unknown payment link pl_nope",
      exitCode: 1,
    });
    expect(await runError(linksCommand, ["list", "--status", "open", "--db", file])).toMatchObject({ exitCode: 2 });
  });
});
