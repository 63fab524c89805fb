import { describe, expect, it } from "vitest";
import { drawByWeight, FALLBACK_RULE, matches, orderCandidates, sortByCost, type RouteFacts } from "../../../src/domain/routing/order";
import type { RoutingConfig, RuleWhen } from "../../../src/store/rows";

// docs/routing.md, The order (product 25): rules, routes, splits, the fallback, `cheapest`.

const bonus = { brand: "bonus", family: "credit", bank: "Demo Bank A", installments: true } as const;
const facts = (over: Partial<RouteFacts> = {}): RouteFacts => ({ bin8: "40000011", card: bonus, installment: 3, amount: 10_000, ...over });

describe("product 25: when keys (all given must match; {} matches everything)", () => {
  it.each<[string, RuleWhen, Partial<RouteFacts>, boolean]>([
    ["{} matches", {}, {}, true],
    ["bins: a prefix of the BIN", { bins: ["4000"] }, {}, true],
    ["bins: another prefix", { bins: ["5400"] }, {}, false],
    ["bins: an unresolved BIN still has its digits", { bins: ["4000"] }, { card: null }, true],
    ["brands", { brands: ["bonus", "world"] }, {}, true],
    ["brands: another brand", { brands: ["world"] }, {}, false],
    ["brands: an unresolved BIN has none", { brands: ["bonus"] }, { card: null }, false],
    ["banks", { banks: ["Demo Bank A"] }, {}, true],
    ["banks: another bank", { banks: ["Demo Bank B"] }, {}, false],
    ["families", { families: ["credit"] }, {}, true],
    ["families: another family", { families: ["debit"] }, {}, false],
    [
      "foreign: true on a foreign card",
      { foreign: true },
      { card: { brand: null, family: "foreign", bank: null, installments: false } },
      true,
    ],
    ["foreign: true on a domestic card", { foreign: true }, {}, false],
    ["foreign: false on an unresolved BIN", { foreign: false }, { card: null }, true],
    ["installmentsFrom inclusive", { installmentsFrom: 3 }, {}, true],
    ["installmentsFrom above", { installmentsFrom: 4 }, {}, false],
    ["installmentsTo inclusive", { installmentsTo: 3 }, {}, true],
    ["installmentsTo below", { installmentsTo: 2 }, {}, false],
    ["amountFrom inclusive", { amountFrom: 10_000 }, {}, true],
    ["amountFrom above", { amountFrom: 10_001 }, {}, false],
    ["amountTo inclusive", { amountTo: 10_000 }, {}, true],
    ["amountTo below", { amountTo: 9_999 }, {}, false],
    ["amount bounds without an amount (options without baseAmount)", { amountFrom: 0 }, { amount: null }, false],
    ["every key must hold", { brands: ["bonus"], installmentsTo: 2 }, {}, false],
  ])("%s", (_name, when, over, expected) => {
    expect(matches(when, facts(over))).toBe(expected);
  });
});

const routing = (over: Partial<RoutingConfig> = {}): RoutingConfig => ({
  members: ["A", "B", "C"],
  rules: [],
  fallback: ["A", "B", "C"],
  order: "rules",
  onUsInstallments: false,
  ...over,
});

describe("product 25: the order of candidates", () => {
  it("no rule matches: the fallback alone, rule 'fallback'", () => {
    expect(orderCandidates(routing(), facts(), "att_1")).toEqual({ rule: FALLBACK_RULE, candidates: ["A", "B", "C"] });
  });

  it("the first matching rule orders: its route, then the fallback members it did not list", () => {
    const r = routing({
      rules: [
        { name: "never", when: { brands: ["world"] }, route: ["A"], split: null },
        { name: "bonus", when: { brands: ["bonus"] }, route: ["C"], split: null },
        { name: "later", when: {}, route: ["B"], split: null },
      ],
    });
    expect(orderCandidates(r, facts(), "att_1")).toEqual({ rule: "bonus", candidates: ["C", "A", "B"] });
  });

  it("a fallback shorter than the members: a member in neither list is never a candidate", () => {
    expect(orderCandidates(routing({ fallback: ["B"] }), facts(), null).candidates).toEqual(["B"]);
  });

  it("split: the drawn member first, then the rest of the split by descending weight, then the fallback", () => {
    const split = [
      { terminal: "A", weight: 1 },
      { terminal: "B", weight: 5 },
      { terminal: "C", weight: 3 },
    ];
    const r = routing({ rules: [{ name: "s", when: {}, route: null, split }] });
    const ids = Array.from({ length: 200 }, (_, i) => `att_${i}`);
    const drawnA = ids.find((id) => drawByWeight(split, id) === "A") as string;
    expect(orderCandidates(r, facts(), drawnA).candidates).toEqual(["A", "B", "C"]);
    const drawnC = ids.find((id) => drawByWeight(split, id) === "C") as string;
    expect(orderCandidates(r, facts(), drawnC).candidates).toEqual(["C", "B", "A"]);
    // Installment options have no attempt: the split in descending weight.
    expect(orderCandidates(r, facts(), null).candidates).toEqual(["B", "C", "A"]);
  });

  it("the same attempt id always draws the same member", () => {
    const split = [
      { terminal: "A", weight: 50 },
      { terminal: "B", weight: 50 },
    ];
    expect(new Set(Array.from({ length: 5 }, () => drawByWeight(split, "att_fixed"))).size).toBe(1);
  });

  it("a split of 1,000 attempt ids lands within 3% of its weights", () => {
    const split = [
      { terminal: "A", weight: 70 },
      { terminal: "B", weight: 20 },
      { terminal: "C", weight: 10 },
    ];
    const counts = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const id = `att_01k${String(i).padStart(6, "0")}${(i * 7919).toString(36)}`;
      const drawn = drawByWeight(split, id);
      counts.set(drawn, (counts.get(drawn) ?? 0) + 1);
    }
    for (const s of split) expect(Math.abs((counts.get(s.terminal) ?? 0) / 1000 - s.weight / 100)).toBeLessThanOrEqual(0.03);
  });

  it("cheapest re-sorts by cost; ties keep the previous order; a member that cannot price goes last", () => {
    const cost: Record<string, number> = { A: 300, B: 200, C: 300, D: Number.POSITIVE_INFINITY };
    expect(sortByCost(["D", "A", "B", "C"], (id) => cost[id] as number)).toEqual(["B", "A", "C", "D"]);
  });
});
