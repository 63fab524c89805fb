import { describe, expect, it } from "vitest";
import { quoteAmounts } from "../../../src/domain/installments/math";
import {
  isChargeable,
  optionsForCard,
  toEffectiveInstallments,
  type ChargeRejection,
  type OptionsResult,
} from "../../../src/domain/installments/options";
import type { CardFamily, TerminalPricing } from "../../../src/domain/installments/types";
import { CARDS, cardOf, demoTerminal, onUsTerminal, rate, type CardName } from "./fixtures";

/** [count, rateBps, fixedFee] per option, or the refusal, so each table row reads in one line. */
function summary(result: OptionsResult): Array<[number, number, number | null]> | "family_not_allowed" {
  if (result.outcome === "family_not_allowed") return result.outcome;
  return result.options.map((option) => [option.installmentCount, option.rateBps, option.fixedFee]);
}

describe("product 8 options for a card (demo terminal T-1001: 1@199, 3@450+100, bonus 3@420)", () => {
  it.each([
    [
      "bonus credit: brand row wins for 3",
      "bonusA",
      [
        [1, 199, null],
        [3, 420, null],
      ],
    ],
    [
      "world credit: generic rows",
      "worldB",
      [
        [1, 199, null],
        [3, 450, 100],
      ],
    ],
    [
      "maximum credit: no maximum rows, generic ones apply",
      "maximumC",
      [
        [1, 199, null],
        [3, 450, 100],
      ],
    ],
    ["debit: single charge only", "debitA", [[1, 199, null]]],
    ["prepaid: single charge only", "prepaidB", [[1, 199, null]]],
    ["credit with installments blocked: single charge only", "bonusBlocked", [[1, 199, null]]],
    ["unresolved BIN: brand-less rows, count 1 only", "unresolved", [[1, 199, null]]],
    ["foreign card on a connection refusing foreign cards: empty list", "foreign", []],
  ] as const)("%s", (_name, card: CardName, expected) => {
    expect(summary(optionsForCard(demoTerminal(), cardOf(card)))).toEqual(expected);
  });
});

type Summary = ReturnType<typeof summary>;

describe("product 8 options for a card: terminal and connection rules", () => {
  it.each<[string, Partial<TerminalPricing>, CardName, Summary]>([
    ["foreign card where foreign cards are accepted: count 1", { acceptsForeignCards: true }, "foreign", [[1, 199, null]]],
    ["debit card where the connection refuses debit: empty", { acceptsDebit: false }, "debitA", []],
    ["prepaid is not debit for acceptsDebit", { acceptsDebit: false }, "prepaidB", [[1, 199, null]]],
    ["family outside allowedCardFamilies: 403 (product 16)", { allowedCardFamilies: ["credit"] }, "debitA", "family_not_allowed"],
    [
      "family inside allowedCardFamilies",
      { allowedCardFamilies: ["credit"] },
      "worldB",
      [
        [1, 199, null],
        [3, 450, 100],
      ],
    ],
    [
      "unresolved BIN where families are restricted: 403",
      { allowedCardFamilies: ["credit", "debit", "prepaid", "foreign"] },
      "unresolved",
      "family_not_allowed",
    ],
    ["family check before the foreign refusal", { allowedCardFamilies: ["credit"] }, "foreign", "family_not_allowed"],
    ["counts outside the effective set are not offered", { effectiveInstallments: [1, 2] }, "bonusA", [[1, 199, null]]],
    ["effective set without 1: no single charge", { effectiveInstallments: [3] }, "bonusA", [[3, 420, null]]],
    [
      "ascending whatever the set's order",
      { effectiveInstallments: [3, 1, 3] },
      "worldB",
      [
        [1, 199, null],
        [3, 450, 100],
      ],
    ],
    ["a count with no rate row is not offered", { rates: [rate(3, 450)] }, "worldB", [[3, 450, null]]],
    ["no rate rows: empty", { rates: [] }, "worldB", []],
    ["a brand row never serves another brand", { rates: [rate(1, 199), rate(3, 420, { brand: "bonus" })] }, "maximumC", [[1, 199, null]]],
  ])("%s", (_name, patch, card, expected) => {
    expect(summary(optionsForCard(demoTerminal(patch), cardOf(card)))).toEqual(expected);
  });
});

describe("product 16 rate rows in options: on-us pricing (1@199, on-us 1@150, 3@450, on-us 6@600)", () => {
  it.each([
    [
      "on-us credit card",
      "bonusA",
      [
        [1, 150, null],
        [3, 450, null],
        [6, 600, null],
      ],
    ],
    [
      "off-us credit card",
      "worldB",
      [
        [1, 199, null],
        [3, 450, null],
      ],
    ],
    [
      "credit card of unknown issuer",
      "bonusUnknownBank",
      [
        [1, 199, null],
        [3, 450, null],
      ],
    ],
    ["on-us debit card", "debitA", [[1, 150, null]]],
    ["unresolved BIN: never on-us", "unresolved", [[1, 199, null]]],
  ] as const)("%s", (_name, card: CardName, expected) => {
    expect(summary(optionsForCard(onUsTerminal(), cardOf(card)))).toEqual(expected);
  });
});

describe("interface 4.8 amounts in options", () => {
  it("are all null when baseAmount is absent", () => {
    const result = optionsForCard(demoTerminal(), CARDS.bonusA);
    expect(result.outcome === "ok" && result.options[0]).toEqual({
      installmentCount: 1,
      rateBps: 199,
      fixedFee: null,
      baseAmount: null,
      commissionAmount: null,
      customerShareAmount: null,
      totalAmount: null,
    });
  });

  it.each([
    ["gross, share omitted: 0, total = base", "gross", undefined, 0],
    ["gross, share 10000", "gross", 10000, 10000],
    ["net, share omitted: 10000", "net", undefined, 10000],
    ["net, share 0: total = base", "net", 0, 0],
    ["net, share 5000", "net", 5000, 5000],
  ] as const)("%s", (_name, basis, shareBps, appliedShare) => {
    const result = optionsForCard(demoTerminal({ commissionBasis: basis }), CARDS.worldB, { baseAmount: 100000, shareBps });
    if (result.outcome !== "ok") throw new Error("expected options");
    for (const option of result.options) {
      const quote = quoteAmounts({ basis, baseAmount: 100000, rateBps: option.rateBps, fixedFee: option.fixedFee, shareBps: appliedShare });
      expect(option).toEqual({ ...option, baseAmount: 100000, ...quote });
      if (appliedShare === 0) expect([option.customerShareAmount, option.totalAmount]).toEqual([0, 100000]);
    }
  });
});

describe("interface 7.4 / product 6 isChargeable: the reason for a count that is not listed", () => {
  type Refusal = { code: ChargeRejection["code"]; reason?: 1 | 2 | 3 };
  it.each<[string, Partial<TerminalPricing>, CardName, number, Refusal]>([
    ["family outside allowedCardFamilies", { allowedCardFamilies: ["credit"] }, "debitA", 1, { code: "terminal_not_allowed" }],
    ["foreign card refused by the connection", {}, "foreign", 1, { code: "virtual_pos_card_type_not_supported" }],
    ["debit card refused by the connection", { acceptsDebit: false }, "debitA", 1, { code: "virtual_pos_card_type_not_supported" }],
    [
      "card type before count: refused debit asking for 3",
      { acceptsDebit: false },
      "debitA",
      3,
      { code: "virtual_pos_card_type_not_supported" },
    ],
    ["reason 2: count outside the effective set", {}, "bonusA", 4, { code: "installment_not_allowed", reason: 2 }],
    ["reason 2 before reason 1: debit asking for 4", {}, "debitA", 4, { code: "installment_not_allowed", reason: 2 }],
    ["reason 1: debit card asking for 3", {}, "debitA", 3, { code: "installment_not_allowed", reason: 1 }],
    ["reason 1: installments blocked on the BIN", {}, "bonusBlocked", 3, { code: "installment_not_allowed", reason: 1 }],
    ["reason 1: unresolved BIN asking for 3", {}, "unresolved", 3, { code: "installment_not_allowed", reason: 1 }],
    [
      "reason 3: brand and count not offered",
      { rates: [rate(1, 199), rate(3, 420, { brand: "bonus" })] },
      "worldB",
      3,
      { code: "installment_not_allowed", reason: 3 },
    ],
    ["reason 3: count in the set without any rate row", {}, "bonusA", 6, { code: "installment_not_allowed", reason: 3 }],
  ])("%s", (_name, patch, card, count, expected) => {
    expect(isChargeable(demoTerminal(patch), cardOf(card), count)).toEqual({ outcome: "rejected", ...expected });
  });
});

describe("interface 4.8 every listed count is chargeable at the same rate, and no other count is", () => {
  const families: CardFamily[][] = [["credit"], ["credit", "debit", "prepaid"]];
  const terminals: Array<[string, TerminalPricing]> = [
    ["demo", demoTerminal()],
    ["demo, net", demoTerminal({ commissionBasis: "net" })],
    ["on-us", onUsTerminal()],
    ["on-us, no debit", onUsTerminal({ acceptsDebit: false })],
    ["demo, capped at 3", demoTerminal({ effectiveInstallments: [1, 2, 3] })],
    ...families.map((allowed): [string, TerminalPricing] => [`families ${allowed}`, demoTerminal({ allowedCardFamilies: allowed })]),
  ];
  const cards: CardName[] = [...(Object.keys(CARDS) as CardName[]), "unresolved"];
  it.each(terminals)("%s terminal, every card, counts 0..13, with and without an amount", (_name, terminal) => {
    for (const card of cards) {
      for (const request of [{}, { baseAmount: 12345, shareBps: 5000 }]) {
        const listed = optionsForCard(terminal, cardOf(card), request);
        for (let count = 0; count <= 13; count += 1) {
          const charge = isChargeable(terminal, cardOf(card), count, request);
          const option = listed.outcome === "ok" ? listed.options.find((o) => o.installmentCount === count) : undefined;
          expect(charge, `${card} x${count}`).toEqual(
            option ? { outcome: "ok", option } : expect.objectContaining({ outcome: "rejected" }),
          );
          if (listed.outcome === "family_not_allowed") expect(charge).toEqual({ outcome: "rejected", code: "terminal_not_allowed" });
        }
      }
    }
  });
});

describe("product 4 effective installment set: the terminal's set capped by installmentCap", () => {
  it.each([
    ["no cap", [1, 2, 3, 6, 9, 12], null, [1, 2, 3, 6, 9, 12]],
    ["cap 6", [1, 2, 3, 6, 9, 12], 6, [1, 2, 3, 6]],
    ["cap below every count", [3, 6], 2, []],
    ["duplicates and order normalised", [6, 1, 3, 1], null, [1, 3, 6]],
  ] as const)("%s", (_name, counts, cap, expected) => {
    expect(toEffectiveInstallments(counts, cap)).toEqual(expected);
  });
});
