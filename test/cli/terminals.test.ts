import { describe, expect, it } from "vitest";
import { terminalsCommand } from "../../cli/commands/terminals";
import { runError, runHuman, runJson, seededDb } from "./cli-run";

type Terminal = Record<string, unknown> & { id: string };

describe("product 14: kasa terminals list|show", () => {
  it("list --json prints every terminal; --partner narrows it", async () => {
    const db = await seededDb();
    expect((await runJson<Terminal[]>(terminalsCommand, ["list", "--db", db])).map((t) => t.id)).toEqual([
      "T-1",
      "T-NET",
      "T-OFF",
      "T-OTHER",
    ]);
    expect((await runJson<Terminal[]>(terminalsCommand, ["list", "--partner", "ptn_other", "--db", db])).map((t) => t.id)).toEqual([
      "T-OTHER",
    ]);
  });

  it("show --json prints every field of product 4, rates included", async () => {
    const db = await seededDb();
    expect(await runJson(terminalsCommand, ["show", "T-NET", "--db", db])).toEqual({
      id: "T-NET",
      partnerId: "ptn_test",
      connectionId: "vpos-1",
      active: true,
      commissionBasis: "net",
      installments: [1, 3, 6],
      infrastructure: "standard",
      directCollection: false,
      valueDays: 1,
      valueDaysByCount: null,
      bank: "Demo Bank B",
      allowedCardFamilies: null,
      rates: [
        { count: 1, brand: null, onUs: null, rateBps: 220, fixedFee: null },
        { count: 3, brand: null, onUs: null, rateBps: 480, fixedFee: null },
        { count: 6, brand: null, onUs: null, rateBps: 720, fixedFee: 50 },
      ],
    });
  });

  it("show of an unknown terminal is one line, exit 1", async () => {
    const db = await seededDb();
    expect(await runError(terminalsCommand, ["show", "T-NOPE", "--db", db])).toEqual({ message: "unknown terminal T-NOPE", exitCode: 1 });
  });

  it("human show lists the rate rows with fees in TRY", async () => {
    const db = await seededDb();
    const text = await runHuman(terminalsCommand, ["show", "T-NET", "--db", db]);
    expect(text).toMatch(/^commission basis\s+net$/m);
    expect(text).toMatch(/^6\s+-\s+-\s+720\s+0,50 TL$/m);
  });
});

describe("product 14: kasa terminals set", () => {
  it("changes the given switches, sorting the installment set", async () => {
    const db = await seededDb();
    const out = await runJson<Terminal>(terminalsCommand, [
      "set",
      "T-1",
      "--active",
      "false",
      "--installments",
      "6,1,3,3",
      "--commission-basis",
      "net",
      "--infrastructure",
      "extended",
      "--direct-collection",
      "true",
      "--value-days",
      "2",
      "--bank",
      "none",
      "--card-families",
      "credit,debit",
      "--db",
      db,
    ]);
    expect(out).toMatchObject({
      active: false,
      installments: [1, 3, 6],
      commissionBasis: "net",
      infrastructure: "extended",
      directCollection: true,
      valueDays: 2,
      bank: null,
      allowedCardFamilies: ["credit", "debit"],
    });
    expect((out.rates as unknown[]).length).toBe(7);
    expect(await runJson(terminalsCommand, ["show", "T-1", "--db", db])).toEqual(out);
    const all = await runJson<Terminal>(terminalsCommand, ["set", "T-1", "--card-families", "all", "--db", db]);
    expect(all.allowedCardFamilies).toBeNull();
  });

  it.each([
    [["--installments", "0,3"], /^--installments\[0\]: /],
    [["--installments", "1,x"], /^--installments: must be an integer/],
    [["--value-days", "366"], /^--value-days: /],
    [["--card-families", "credit,gold"], /^--card-families\[1\]: /],
    [["--active", "maybe"], /--active/],
    [["--commission-basis", "half"], /--commission-basis/],
    [[], /^nothing to set/],
  ])("%j is a usage error (exit 2) that writes nothing", async (flags, message) => {
    const db = await seededDb();
    const before = await runJson(terminalsCommand, ["show", "T-1", "--db", db]);
    const err = await runError(terminalsCommand, ["set", "T-1", ...flags, "--db", db]);
    expect(err).toMatchObject({ exitCode: 2, message: expect.stringMatching(message) });
    expect(await runJson(terminalsCommand, ["show", "T-1", "--db", db])).toEqual(before);
  });

  it("an unknown terminal is exit 1", async () => {
    const db = await seededDb();
    expect(await runError(terminalsCommand, ["set", "T-NOPE", "--active", "true", "--db", db])).toEqual({
      message: "unknown terminal T-NOPE",
      exitCode: 1,
    });
  });
});
