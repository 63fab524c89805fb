import { createHash } from "node:crypto";
import type { CardInfo } from "../installments/types";
import type { RoutingConfig, RoutingRule, RuleWhen, SplitShare } from "../../store/rows";

// The order in which a router examines its members for one card attempt (docs/routing.md, The
// order). Pure: the rule that matches, the members it lists (a route, or a split drawn by weight),
// then the fallback members it did not list. `cheapest` re-sorts that list afterwards
// (choose.ts), because it needs each member's rates.

/** What a rule can look at: the card (null: a BIN not in the table), the count and the amount. */
export type RouteFacts = {
  bin8: string;
  card: CardInfo | null;
  installment: number;
  /** The payment's amount in kuruş; null where none is known (installment options without baseAmount). */
  amount: number | null;
};

/** The rule's name, or `fallback` when none matched; and the members in the order to examine them. */
export type Ordered = { rule: string; candidates: string[] };

/** The name a decision records when no rule matched. A rule may not be called this (seed-checks.ts). */
export const FALLBACK_RULE = "fallback";

/**
 * `attemptId` null (installment options, which have no attempt): a split lists its members in
 * descending weight, the order an attempt gets when its draw falls on the heaviest member.
 */
export function orderCandidates(routing: RoutingConfig, facts: RouteFacts, attemptId: string | null): Ordered {
  const rule = routing.rules.find((r) => matches(r.when, facts));
  const listed = rule ? ruleOrder(rule, attemptId) : [];
  const rest = routing.fallback.filter((id) => !listed.includes(id));
  return { rule: rule?.name ?? FALLBACK_RULE, candidates: [...listed, ...rest] };
}

function ruleOrder(rule: RoutingRule, attemptId: string | null): string[] {
  if (rule.route !== null) return [...new Set(rule.route)];
  const split = rule.split ?? [];
  const byWeight = [...split].sort((a, b) => b.weight - a.weight).map((s) => s.terminal);
  if (attemptId === null) return [...new Set(byWeight)];
  const drawn = drawByWeight(split, attemptId);
  return [...new Set([drawn, ...byWeight])];
}

/**
 * One member of the split, chosen by weight from the attempt id: the id's SHA-256 read as a
 * number below the total weight picks the share it falls in. The same attempt always draws the
 * same member (a decision can be explained later); different attempt ids spread by weight.
 */
export function drawByWeight(split: readonly SplitShare[], attemptId: string): string {
  const total = split.reduce((sum, s) => sum + s.weight, 0);
  const digest = createHash("sha256").update(attemptId).digest();
  let point = Number(digest.readBigUInt64BE(0) % BigInt(total));
  for (const share of split) {
    if (point < share.weight) return share.terminal;
    point -= share.weight;
  }
  // Unreachable while weights are positive integers (the seed refuses anything else).
  return split[split.length - 1]?.terminal ?? "";
}

/** Every key given must hold; `{}` matches every attempt. */
export function matches(when: RuleWhen, f: RouteFacts): boolean {
  const card = f.card;
  if (when.bins && !when.bins.some((prefix) => f.bin8.startsWith(prefix))) return false;
  if (when.brands && !(card?.brand != null && when.brands.includes(card.brand))) return false;
  if (when.banks && !(card?.bank != null && when.banks.includes(card.bank))) return false;
  if (when.families && !(card != null && when.families.includes(card.family))) return false;
  if (when.foreign !== undefined && (card?.family === "foreign") !== when.foreign) return false;
  if (when.installmentsFrom !== undefined && f.installment < when.installmentsFrom) return false;
  if (when.installmentsTo !== undefined && f.installment > when.installmentsTo) return false;
  // Without an amount (options asked without baseAmount) a rule with amount bounds cannot match.
  if (when.amountFrom !== undefined && (f.amount === null || f.amount < when.amountFrom)) return false;
  if (when.amountTo !== undefined && (f.amount === null || f.amount > when.amountTo)) return false;
  return true;
}

/** Stable re-sort by a cost per member; equal costs keep their order (Array.prototype.sort is stable). */
export function sortByCost(candidates: readonly string[], costOf: (id: string) => number): string[] {
  const cost = new Map(candidates.map((id) => [id, costOf(id)]));
  return [...candidates].sort((a, b) => {
    const ca = cost.get(a) ?? Infinity;
    const cb = cost.get(b) ?? Infinity;
    return ca === cb ? 0 : ca < cb ? -1 : 1;
  });
}
