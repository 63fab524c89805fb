import { afterEach, describe, expect, it } from "vitest";
import { quoteAmounts } from "../../src/domain/installments/math";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { harness, type Harness } from "../support/harness";
import { OTHER_KEY, TEST_SEED } from "../support/fixtures";

// Interface 4.8 over HTTP, on the test fixtures: T-1 gross (1@199, 2@350, 3@450+100, bonus 3@420,
// 6@690, 9@920, 12@1150; bank Demo Bank A), T-NET net (1@220, 3@480, 6@720+50), connection vpos-1
// refusing foreign cards, partner installmentCap 12. T-CREDIT is added here: credit cards only.

let h: Harness;
afterEach(async () => h?.close());

const PATH = "/v1/installment-options";
const UNRESOLVED = "34000014";

/** The fixtures plus a terminal that allows only credit cards (product 16). */
const SEED: SeedFile = {
  ...TEST_SEED,
  terminals: [
    ...TEST_SEED.terminals!,
    {
      id: "T-CREDIT",
      partner: "ptn_test",
      connection: "vpos-1",
      installments: [1, 3],
      allowedCardFamilies: ["credit"],
      rates: [
        { count: 1, rateBps: 199 },
        { count: 3, rateBps: 450 },
      ],
    },
  ],
};

const withCap = (installmentCap: number): SeedFile => ({
  ...SEED,
  partners: SEED.partners!.map((p) => (p.id === "ptn_test" ? { ...p, installmentCap } : p)),
});

/** [count, rateBps, fixedFee] per option. */
const summary = (options: Array<{ installmentCount: number; rateBps: number; fixedFee: number | null }>) =>
  options.map((o) => [o.installmentCount, o.rateBps, o.fixedFee]);

describe("interface 4.8 request validation (400 validation_error, interface 8 limits)", () => {
  const ok = { bin: "40000011", terminalId: "T-1" };
  it.each<[string, Record<string, unknown>, string]>([
    ["bin missing", { terminalId: "T-1" }, "bin"],
    ["bin of 7 digits", { ...ok, bin: "4000001" }, "bin"],
    ["bin of 9 digits", { ...ok, bin: "400000111" }, "bin"],
    ["bin as a number", { ...ok, bin: 40000011 }, "bin"],
    ["bin with a letter", { ...ok, bin: "4000001a" }, "bin"],
    ["bin with a space", { ...ok, bin: " 40000011" }, "bin"],
    ["bin empty", { ...ok, bin: "" }, "bin"],
    ["terminalId missing", { bin: "40000011" }, "terminalId"],
    ["terminalId empty", { ...ok, terminalId: "" }, "terminalId"],
    ["terminalId blank", { ...ok, terminalId: "   " }, "terminalId"],
    ["terminalId not a string", { ...ok, terminalId: 1 }, "terminalId"],
    ["terminalId longer than any terminal id", { ...ok, terminalId: "T".repeat(65) }, "terminalId"],
    ["baseAmount 0", { ...ok, baseAmount: 0 }, "baseAmount"],
    ["baseAmount negative", { ...ok, baseAmount: -1 }, "baseAmount"],
    ["baseAmount fractional", { ...ok, baseAmount: 100.5 }, "baseAmount"],
    ["baseAmount as a string", { ...ok, baseAmount: "100" }, "baseAmount"],
    ["baseAmount above MAX_SAFE_INTEGER", { ...ok, baseAmount: 2 ** 53 }, "baseAmount"],
    ["share below 0", { ...ok, baseAmount: 100, customerCommissionShareBps: -1 }, "customerCommissionShareBps"],
    ["share above 10000", { ...ok, baseAmount: 100, customerCommissionShareBps: 10001 }, "customerCommissionShareBps"],
    ["share fractional", { ...ok, baseAmount: 100, customerCommissionShareBps: 0.5 }, "customerCommissionShareBps"],
    ["share as a string", { ...ok, customerCommissionShareBps: "0" }, "customerCommissionShareBps"],
    ["share out of range even without baseAmount", { ...ok, customerCommissionShareBps: 10001 }, "customerCommissionShareBps"],
    ["unknown field", { ...ok, installment: 3 }, "installment"],
  ])("%s", async (_name, body, field) => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, body);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("validation_error");
    expect(r.json.error.message.startsWith(`${field}:`)).toBe(true);
  });

  it("shape errors come before terminal ownership (product 3 check order)", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { bin: "123", terminalId: "T-OTHER" });
    expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
  });

  it.each([
    ["share 0", 0],
    ["share 10000", 10000],
    ["baseAmount and share null mean absent", null],
  ])("accepts the boundaries: %s", async (_name, share) => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, {
      bin: "40000011",
      terminalId: "T-1",
      baseAmount: share === null ? null : 1,
      customerCommissionShareBps: share,
    });
    expect(r.status).toBe(200);
  });
});

describe("interface 4.8 terminalId: 403 terminal_not_allowed (interface 1, 7.2; product 16)", () => {
  it.each([
    ["another partner's terminal", "T-OTHER", "40000011"],
    ["an inactive terminal", "T-OFF", "40000011"],
    ["an unknown terminal", "T-NOPE", "40000011"],
    ["a debit card where only credit is allowed (product 16)", "T-CREDIT", "40000033"],
    ["a foreign card where only credit is allowed: family before the foreign refusal", "T-CREDIT", "40000055"],
    ["an unresolved BIN where families are restricted (it has no family to allow)", "T-CREDIT", UNRESOLVED],
  ])("%s", async (_name, terminalId, bin) => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { bin, terminalId });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("terminal_not_allowed");
  });

  it("a credit card at the credit-only terminal gets its options", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { bin: "40000022", terminalId: "T-CREDIT" });
    expect(summary(r.json.options)).toEqual([
      [1, 199, null],
      [3, 450, null],
    ]);
  });

  it("the other partner sees its own terminal", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { bin: "40000011", terminalId: "T-OTHER" }, { key: OTHER_KEY });
    expect(summary(r.json.options)).toEqual([
      [1, 199, null],
      [3, 450, null],
    ]);
  });
});

describe("interface 4.8 response per card at T-1 (product 8 eligibility, product 16 rate rows)", () => {
  const all = [
    [1, 199, null],
    [2, 350, null],
    [3, 450, 100],
    [6, 690, null],
    [9, 920, null],
    [12, 1150, null],
  ];
  it.each<[string, string, [string | null, string | null, string | null], unknown[]]>([
    [
      "bonus credit: the brand row wins for 3",
      "40000011",
      ["bonus", "credit", "Demo Bank A"],
      [
        [1, 199, null],
        [2, 350, null],
        [3, 420, null],
        [6, 690, null],
        [9, 920, null],
        [12, 1150, null],
      ],
    ],
    ["world credit: generic rows", "40000022", ["world", "credit", "Demo Bank B"], all],
    ["maximum credit: generic rows", "54000066", ["maximum", "credit", "Demo Bank C"], all],
    ["debit: single charge", "40000033", [null, "debit", "Demo Bank A"], [[1, 199, null]]],
    ["prepaid: single charge", "40000044", [null, "prepaid", "Demo Bank B"], [[1, 199, null]]],
    ["installments blocked on the BIN: single charge", "40000012", ["bonus", "credit", "Demo Bank A"], [[1, 199, null]]],
    ["foreign card on vpos-1 (acceptsForeignCards false): empty", "40000055", [null, "foreign", null], []],
    ["unresolved BIN: brand, family, bank null; count 1 only", UNRESOLVED, [null, null, null], [[1, 199, null]]],
  ])("%s", async (_name, bin, [cardBrand, cardFamily, cardBank], options) => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { bin, terminalId: "T-1" });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(["cardBrand", "cardFamily", "cardBank", "options", "commissionBasis"]);
    expect(r.json).toMatchObject({ cardBrand, cardFamily, cardBank, commissionBasis: "gross" });
    expect(summary(r.json.options)).toEqual(options);
  });

  it("commissionBasis is returned with an empty list and on a net terminal", async () => {
    h = await harness({ seed: SEED });
    expect((await h.post(PATH, { bin: "40000055", terminalId: "T-NET" })).json).toMatchObject({ options: [], commissionBasis: "net" });
  });

  it("options ascend and include count 1 when the effective set holds it", async () => {
    h = await harness({ seed: SEED });
    const counts = (await h.post(PATH, { bin: "40000011", terminalId: "T-1" })).json.options.map(
      (o: { installmentCount: number }) => o.installmentCount,
    );
    expect(counts[0]).toBe(1);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => a - b));
  });

  it.each([
    ["cap 6", 6, [1, 2, 3, 6]],
    ["cap 2", 2, [1, 2]],
    ["cap 1: single charge only", 1, [1]],
  ])("the effective set is capped by the partner's installmentCap (product 4): %s", async (_name, cap, counts) => {
    h = await harness({ seed: withCap(cap) });
    const r = await h.post(PATH, { bin: "40000011", terminalId: "T-1" });
    expect(r.json.options.map((o: { installmentCount: number }) => o.installmentCount)).toEqual(counts);
  });
});

describe("interface 2.5 / 4.8 amounts (product 8)", () => {
  it("are all null when baseAmount is absent", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { bin: "40000011", terminalId: "T-1", customerCommissionShareBps: 5000 });
    expect(r.json.options[0]).toEqual({
      installmentCount: 1,
      rateBps: 199,
      fixedFee: null,
      baseAmount: null,
      commissionAmount: null,
      customerShareAmount: null,
      totalAmount: null,
    });
  });

  it("net terminal, share omitted: 10000, the buyer carries the whole commission", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { bin: "40000022", terminalId: "T-NET", baseAmount: 100000 });
    expect(r.json.options).toEqual([
      {
        installmentCount: 1,
        rateBps: 220,
        fixedFee: null,
        baseAmount: 100000,
        commissionAmount: 2200,
        customerShareAmount: 2200,
        totalAmount: 102200,
      },
      {
        installmentCount: 3,
        rateBps: 480,
        fixedFee: null,
        baseAmount: 100000,
        commissionAmount: 4800,
        customerShareAmount: 4800,
        totalAmount: 104800,
      },
      {
        installmentCount: 6,
        rateBps: 720,
        fixedFee: 50,
        baseAmount: 100000,
        commissionAmount: 7250,
        customerShareAmount: 7250,
        totalAmount: 107250,
      },
    ]);
  });

  it.each([
    ["gross, share omitted: 0", "T-1", undefined, 0, "gross"],
    ["gross, share 1", "T-1", 1, 1, "gross"],
    ["gross, share 5000", "T-1", 5000, 5000, "gross"],
    ["gross, share 10000", "T-1", 10000, 10000, "gross"],
    ["net, share 0", "T-NET", 0, 0, "net"],
    ["net, share 5000", "T-NET", 5000, 5000, "net"],
  ] as const)("%s: product 8 formulas, share = total - base", async (_name, terminalId, share, applied, basis) => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { bin: "40000022", terminalId, baseAmount: 123457, customerCommissionShareBps: share });
    for (const option of r.json.options) {
      const expected = quoteAmounts({ basis, baseAmount: 123457, rateBps: option.rateBps, fixedFee: option.fixedFee, shareBps: applied });
      expect(option).toEqual({
        installmentCount: option.installmentCount,
        rateBps: option.rateBps,
        fixedFee: option.fixedFee,
        baseAmount: 123457,
        ...expected,
      });
      expect(option.customerShareAmount).toBe(option.totalAmount - option.baseAmount);
      if (applied === 0) expect([option.customerShareAmount, option.totalAmount]).toEqual([0, 123457]);
    }
  });

  it("a total past MAX_SAFE_INTEGER is 400 validation_error naming baseAmount, never 500 (product 2)", async () => {
    h = await harness({ seed: SEED });
    const gross = await h.post(PATH, {
      bin: "40000011",
      terminalId: "T-1",
      baseAmount: Number.MAX_SAFE_INTEGER - 1000,
      customerCommissionShareBps: 10000,
    });
    expect([gross.status, gross.json.error.code]).toEqual([400, "validation_error"]);
    expect(gross.json.error.message).toMatch(/^baseAmount: /);
    const net = await h.post(PATH, { bin: "40000011", terminalId: "T-NET", baseAmount: Number.MAX_SAFE_INTEGER });
    expect([net.status, net.json.error.code]).toEqual([400, "validation_error"]);
  });

  it("the largest base with share 0 still quotes: total = base = MAX_SAFE_INTEGER", async () => {
    h = await harness({ seed: SEED });
    const r = await h.post(PATH, { bin: "40000011", terminalId: "T-1", baseAmount: Number.MAX_SAFE_INTEGER });
    expect(r.status).toBe(200);
    for (const option of r.json.options) expect(option.totalAmount).toBe(Number.MAX_SAFE_INTEGER);
  });
});
