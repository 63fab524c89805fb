import { describe, expect, it } from "vitest";
import { optionsForCard, overviewFor } from "../../../src/domain/installments/options";
import type { InstallmentOverviewJson, TerminalPricing } from "../../../src/domain/installments/types";
import { BANK_A, demoTerminal, onUsTerminal, rate } from "./fixtures";

type GroupSummary = [string | null, boolean | null, string | null, boolean | null, string];

/** One line per group: [cardType, onUs, cardBrand, onUsRequired, "count@rate(+fee) ..."]. */
function groups(overview: InstallmentOverviewJson): GroupSummary[] {
  return overview.optionGroups.map((group) => [
    group.cardType,
    group.onUs,
    group.cardBrand,
    group.onUsRequired,
    group.options.map((o) => `${o.installmentCount}@${o.rateBps}${o.fixedFee === null ? "" : `+${o.fixedFee}`}`).join(" "),
  ]);
}

describe("interface 4.9 / product 8 overview groups (grouping rules in options.ts)", () => {
  it.each<[string, TerminalPricing, GroupSummary[]]>([
    [
      "demo terminal: a bonus group, other credit brands, single-charge types; issuer irrelevant",
      demoTerminal(),
      [
        ["credit", null, "bonus", null, "1@199 3@420"],
        ["credit", null, null, null, "1@199 3@450+100"],
        ["debit", null, null, null, "1@199"],
        ["prepaid", null, null, null, "1@199"],
        // No foreign group: the connection refuses foreign cards. Last, unresolved BINs.
        [null, null, null, null, "1@199"],
      ],
    ],
    [
      "on-us rows split groups; onUsRequired when on-us adds a count",
      onUsTerminal(),
      [
        ["credit", true, null, true, "1@150 3@450 6@600"],
        ["credit", false, null, null, "1@199 3@450"],
        ["debit", true, null, false, "1@150"],
        ["debit", false, null, null, "1@199"],
        ["prepaid", true, null, false, "1@150"],
        ["prepaid", false, null, null, "1@199"],
        ["foreign", null, null, null, "1@199"],
        [null, null, null, null, "1@199"],
      ],
    ],
    [
      "on-us rows ignored at a terminal without a bank",
      onUsTerminal({ bank: null, acceptsForeignCards: false }),
      [
        ["credit", null, null, null, "1@199 3@450"],
        ["debit", null, null, null, "1@199"],
        ["prepaid", null, null, null, "1@199"],
        [null, null, null, null, "1@199"],
      ],
    ],
    [
      "only on-us rows: off-us groups vanish",
      demoTerminal({ rates: [rate(1, 150, { onUs: true })], allowedCardFamilies: ["credit"] }),
      [["credit", true, null, true, "1@150"]],
    ],
    [
      "brands sorted, other brands last; a brand row outside the effective set makes no group",
      demoTerminal({
        effectiveInstallments: [1, 3],
        rates: [rate(1, 199), rate(3, 430, { brand: "world" }), rate(3, 420, { brand: "bonus" }), rate(6, 600, { brand: "axess" })],
        allowedCardFamilies: ["credit"],
      }),
      [
        ["credit", null, "bonus", null, "1@199 3@420"],
        ["credit", null, "world", null, "1@199 3@430"],
        ["credit", null, null, null, "1@199"],
      ],
    ],
    [
      "brand and on-us together",
      demoTerminal({
        effectiveInstallments: [1, 3],
        rates: [rate(1, 199), rate(3, 400, { brand: "bonus", onUs: true }), rate(3, 450, { brand: "bonus" })],
        allowedCardFamilies: ["credit"],
      }),
      [
        ["credit", true, "bonus", false, "1@199 3@400"],
        ["credit", false, "bonus", null, "1@199 3@450"],
        ["credit", null, null, null, "1@199"],
      ],
    ],
    [
      "no debit accepted, restricted families",
      demoTerminal({ acceptsDebit: false, allowedCardFamilies: ["credit", "debit"] }),
      [
        ["credit", null, "bonus", null, "1@199 3@420"],
        ["credit", null, null, null, "1@199 3@450+100"],
      ],
    ],
    ["no rate rows: no groups", demoTerminal({ rates: [] }), []],
  ])("%s", (_name, terminal, expected) => {
    expect(groups(overviewFor(terminal))).toEqual(expected);
  });
});

describe("interface 4.9 / product 8 overview maximums: per group the option with the highest count", () => {
  it.each([
    ["demo", demoTerminal()],
    ["on-us", onUsTerminal()],
    ["net with amounts", demoTerminal({ commissionBasis: "net" })],
  ])("%s terminal", (_name, terminal) => {
    const overview = overviewFor(terminal, { baseAmount: 50000 });
    expect(overview.commissionBasis).toBe(terminal.commissionBasis);
    expect(overview.maximums).toHaveLength(overview.optionGroups.length);
    overview.optionGroups.forEach((group, index) => {
      const top = Math.max(...group.options.map((o) => o.installmentCount));
      expect(overview.maximums[index]).toEqual({
        option: group.options.find((o) => o.installmentCount === top),
        source: { cardType: group.cardType, onUs: group.onUs, cardBrand: group.cardBrand },
      });
    });
  });

  it("demo terminal: 3 for credit groups, 1 for single-charge groups", () => {
    const counts = overviewFor(demoTerminal()).maximums.map((m) => [m.source.cardType, m.source.cardBrand, m.option.installmentCount]);
    expect(counts).toEqual([
      ["credit", "bonus", 3],
      ["credit", null, 3],
      ["debit", null, 1],
      ["prepaid", null, 1],
      [null, null, 1],
    ]);
  });
});

describe("product 8 overview is 'the same, without a BIN': groups match optionsForCard", () => {
  it.each([
    ["bonus on-us card", { brand: "bonus", family: "credit", bank: BANK_A, installments: true }, ["credit", true, null]],
    ["other-brand off-us card", { brand: "world", family: "credit", bank: "Demo Bank B", installments: true }, ["credit", false, null]],
    ["on-us debit card", { brand: null, family: "debit", bank: BANK_A, installments: false }, ["debit", true, null]],
  ] as const)("%s, with amounts", (_name, card, [cardType, onUs, cardBrand]) => {
    const terminal = onUsTerminal({ commissionBasis: "net" });
    const request = { baseAmount: 123456, shareBps: 2500 };
    const group = overviewFor(terminal, request).optionGroups.find(
      (g) => g.cardType === cardType && g.onUs === onUs && g.cardBrand === cardBrand,
    );
    const listed = optionsForCard(terminal, card, request);
    expect(listed.outcome === "ok" && listed.options).toEqual(group?.options);
    expect(group?.options.every((o) => o.baseAmount === 123456 && o.totalAmount !== null)).toBe(true);
  });
});
