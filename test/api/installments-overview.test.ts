import { afterEach, describe, expect, it } from "vitest";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { harness, type Harness } from "../support/harness";
import { TEST_SEED } from "../support/fixtures";

// Interface 4.9 over HTTP (product 8 "the same, without a BIN"; the grouping rules are in
// src/domain/installments/options.ts and unit-tested in test/unit/installments/overview.test.ts).

let h: Harness;
afterEach(async () => h?.close());

const PATH = "/v1/installment-options/overview";

const SEED: SeedFile = {
  ...TEST_SEED,
  connections: [...TEST_SEED.connections!, { id: "vpos-2", psp: "psp-1", bank: "sim", acceptsForeignCards: true }],
  terminals: [
    ...TEST_SEED.terminals!,
    {
      id: "T-ONUS",
      partner: "ptn_test",
      connection: "vpos-2",
      installments: [1, 3, 6],
      bank: "Demo Bank A",
      rates: [
        { count: 1, rateBps: 199 },
        { count: 1, rateBps: 150, onUs: true },
        { count: 3, rateBps: 450 },
        { count: 6, rateBps: 600, onUs: true },
      ],
    },
  ],
};

const opt = (installmentCount: number, rateBps: number, fixedFee: number | null = null) => ({
  installmentCount,
  rateBps,
  fixedFee,
  baseAmount: null,
  commissionAmount: null,
  customerShareAmount: null,
  totalAmount: null,
});

describe("interface 4.9 overview: shape", () => {
  it("T-1: one group per card kind, maximums per group, options per 2.5", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { terminalId: "T-1" });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(["commissionBasis", "maximums", "optionGroups"]);
    const credit = [opt(1, 199), opt(2, 350), opt(3, 450, 100), opt(6, 690), opt(9, 920), opt(12, 1150)];
    const groups = [
      {
        cardType: "credit",
        onUs: null,
        cardBrand: "bonus",
        onUsRequired: null,
        options: [opt(1, 199), opt(2, 350), opt(3, 420), opt(6, 690), opt(9, 920), opt(12, 1150)],
      },
      { cardType: "credit", onUs: null, cardBrand: null, onUsRequired: null, options: credit },
      { cardType: "debit", onUs: null, cardBrand: null, onUsRequired: null, options: [opt(1, 199)] },
      { cardType: "prepaid", onUs: null, cardBrand: null, onUsRequired: null, options: [opt(1, 199)] },
      // No foreign group: vpos-1 refuses foreign cards. cardType null: unresolved BINs.
      { cardType: null, onUs: null, cardBrand: null, onUsRequired: null, options: [opt(1, 199)] },
    ];
    expect(r.json).toEqual({
      commissionBasis: "gross",
      optionGroups: groups,
      maximums: groups.map((g) => ({
        option: g.options[g.options.length - 1],
        source: { cardType: g.cardType, onUs: g.onUs, cardBrand: g.cardBrand },
      })),
    });
  });

  it("on-us pricing splits a kind into on-us and off-us groups; onUsRequired when a count needs the issuer", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { terminalId: "T-ONUS" });
    const credit = r.json.optionGroups.filter((g: { cardType: string }) => g.cardType === "credit");
    expect(credit).toEqual([
      { cardType: "credit", onUs: true, cardBrand: null, onUsRequired: true, options: [opt(1, 150), opt(3, 450), opt(6, 600)] },
      { cardType: "credit", onUs: false, cardBrand: null, onUsRequired: null, options: [opt(1, 199), opt(3, 450)] },
    ]);
    expect(r.json.optionGroups.map((g: { cardType: string | null; onUs: boolean | null }) => [g.cardType, g.onUs])).toEqual([
      ["credit", true],
      ["credit", false],
      ["debit", true],
      ["debit", false],
      ["prepaid", true],
      ["prepaid", false],
      ["foreign", null],
      [null, null],
    ]);
  });

  it("commissionBasis of a net terminal, amounts filled with the net default share 10000", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { terminalId: "T-NET", baseAmount: 100000 });
    expect(r.json.commissionBasis).toBe("net");
    const group = r.json.optionGroups[0];
    expect(group.options[0]).toEqual({
      installmentCount: 1,
      rateBps: 220,
      fixedFee: null,
      baseAmount: 100000,
      commissionAmount: 2200,
      customerShareAmount: 2200,
      totalAmount: 102200,
    });
  });

  it("gross with share omitted: total = base in every option", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { terminalId: "T-1", baseAmount: 5000, customerCommissionShareBps: null });
    for (const group of r.json.optionGroups)
      for (const o of group.options) expect([o.customerShareAmount, o.totalAmount]).toEqual([0, 5000]);
  });

  it("is capped by the partner's installmentCap (product 4)", async () => {
    h = await harness({ seed: { ...SEED, partners: SEED.partners!.map((p) => (p.id === "ptn_test" ? { ...p, installmentCap: 3 } : p)) } });
    const r = await h.post(PATH, { terminalId: "T-1" });
    expect(r.json.maximums.map((m: { option: { installmentCount: number } }) => m.option.installmentCount)).toEqual([3, 3, 1, 1, 1]);
  });
});

describe("interface 4.9 overview agrees with 4.8 options for a card of each group", () => {
  it.each([
    ["bonus credit", "T-1", "40000011", { cardType: "credit", cardBrand: "bonus", onUs: null }],
    ["other-brand credit", "T-1", "40000022", { cardType: "credit", cardBrand: null, onUs: null }],
    ["debit", "T-1", "40000033", { cardType: "debit", cardBrand: null, onUs: null }],
    ["unresolved BIN", "T-1", "34000014", { cardType: null, cardBrand: null, onUs: null }],
    ["on-us credit", "T-ONUS", "40000011", { cardType: "credit", cardBrand: null, onUs: true }],
    ["off-us credit", "T-ONUS", "40000022", { cardType: "credit", cardBrand: null, onUs: false }],
    ["foreign where accepted", "T-ONUS", "40000055", { cardType: "foreign", cardBrand: null, onUs: null }],
  ])("%s at %s", async (_name, terminalId, bin, key) => {
    h = await harness({ seed: SEED });
    const amounts = { baseAmount: 77777, customerCommissionShareBps: 2500 };
    const overview = await h.post(PATH, { terminalId, ...amounts });
    const options = await h.post("/v1/installment-options", { terminalId, bin, ...amounts });
    const group = overview.json.optionGroups.find(
      (g: typeof key) => g.cardType === key.cardType && g.cardBrand === key.cardBrand && g.onUs === key.onUs,
    );
    expect(group.options).toEqual(options.json.options);
  });
});

describe("interface 4.9 overview: errors", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["terminalId missing", {}, "terminalId"],
    ["terminalId blank", { terminalId: " " }, "terminalId"],
    ["a bin is not a field of the overview", { terminalId: "T-1", bin: "40000011" }, "bin"],
    ["baseAmount 0", { terminalId: "T-1", baseAmount: 0 }, "baseAmount"],
    ["share 10001", { terminalId: "T-1", customerCommissionShareBps: 10001 }, "customerCommissionShareBps"],
  ])("400 validation_error: %s", async (_name, body, field) => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, body);
    expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
    expect(r.json.error.message.startsWith(`${field}:`)).toBe(true);
  });

  it.each(["T-OTHER", "T-OFF", "T-NOPE"])("403 terminal_not_allowed: %s", async (terminalId) => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { terminalId });
    expect([r.status, r.json.error.code]).toEqual([403, "terminal_not_allowed"]);
  });

  it("a total past MAX_SAFE_INTEGER is 400, never 500 (product 2)", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { terminalId: "T-NET", baseAmount: Number.MAX_SAFE_INTEGER });
    expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
    expect(r.json.error.message).toMatch(/^baseAmount: /);
  });
});
