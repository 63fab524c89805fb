import { describe, expect, it } from "vitest";
import { isLuhnValid } from "../../../src/bank/sim/card-checks";
import { formatTry, maskPan } from "../../../src/bank/sim/format";
import { DEMO_BINS, TEST_CARDS, toSimProfile } from "../../../src/bank/test-cards";

describe("product 6 test cards and demo BIN table", () => {
  it("lists every row of the table, in order", () => {
    expect(TEST_CARDS.map((c) => c.pan)).toEqual([
      "4000001100000009",
      "4000002200000006",
      "5400006600000006",
      "4000003300000003",
      "4000004400000000",
      "4000005500000006",
      "5400007700000003",
      "4000008800000007",
      "4000009900000004",
      "4000001200000008",
      "5400001300000000",
      "4000001500000005",
      "3400001400000004",
    ]);
  });

  it.each(TEST_CARDS)("$pan is Luhn-valid", ({ pan }) => {
    expect(isLuhnValid(pan)).toBe(true);
  });

  it("has a BIN row for every test card but the unresolved one", () => {
    const bins = DEMO_BINS.map((b) => b.bin);
    expect(new Set(bins).size).toBe(bins.length);
    expect(bins.sort()).toEqual(
      TEST_CARDS.map((c) => c.pan.slice(0, 8))
        .filter((b) => b !== "34000014")
        .sort(),
    );
  });

  it.each([
    ["40000011", { brand: "bonus", family: "credit", bank: "Demo Bank A", installments: true }],
    ["40000022", { brand: "world", family: "credit", bank: "Demo Bank B", installments: true }],
    ["54000066", { brand: "maximum", family: "credit", bank: "Demo Bank C", installments: true }],
    ["40000033", { brand: null, family: "debit", bank: "Demo Bank A", installments: false }],
    ["40000044", { brand: null, family: "prepaid", bank: "Demo Bank B", installments: false }],
    ["40000055", { brand: null, family: "foreign", bank: null, installments: false }],
    ["54000077", { brand: "axess", family: "credit", bank: "Demo Bank A", installments: true }],
    ["40000088", { brand: "bonus", family: "credit", bank: "Demo Bank A", installments: true }],
    ["40000099", { brand: "bonus", family: "credit", bank: "Demo Bank A", installments: true }],
    ["40000012", { brand: "bonus", family: "credit", bank: "Demo Bank A", installments: false }],
    ["54000013", { brand: "world", family: "credit", bank: "Demo Bank B", installments: true }],
    ["40000015", { brand: "bonus", family: "credit", bank: "Demo Bank A", installments: true }],
  ])("BIN %s has the facts of product 6", (bin, facts) => {
    expect(DEMO_BINS.find((b) => b.bin === bin)).toEqual({ bin, ...facts });
  });

  it("treats a card outside the table as approved", () => {
    expect(toSimProfile("4111111111111111")).toBe("approve");
  });
});

describe("product 6.3 ACS display helpers", () => {
  it.each([
    [0, "0,00 TL"],
    [5, "0,05 TL"],
    [99999, "999,99 TL"],
    [123456, "1.234,56 TL"],
    [100000000, "1.000.000,00 TL"],
  ])("formats %i kuruş as %s", (amount, text) => {
    expect(formatTry(amount)).toBe(text);
  });

  it("masks a PAN as first 6, six stars, last 4 (product 5)", () => {
    expect(maskPan("4000001100000009")).toBe("400000******0009");
    expect(maskPan("not a pan")).toBeNull();
  });
});
