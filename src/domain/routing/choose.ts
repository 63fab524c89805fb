import type { Deps } from "../../deps";
import type { ErrorCode } from "../../errors";
import type { Repos } from "../../store/store";
import { commissionOn } from "../installments/math";
import { isChargeable } from "../installments/options";
import type { CardInfo, InstallmentOptionJson } from "../installments/types";
import { exceededConnectionLimit, type ConnectionLimitCode } from "../payments/connection-limits";
import { examineStatic, loadMembers, type Member } from "./examine";
import { orderCandidates, sortByCost, type RouteFacts } from "./order";
import type { PartnerRow, RoutingConfig } from "../../store/rows";
import type { PaymentRow, RouteRecord, RouteSkipReason } from "../../store/rows-money";

// A router's choice for one card attempt (docs/routing.md, The choice): the candidates in order,
// each examined against the filters until one survives. The failover after a technical failure
// of a pre-redirect bank call continues the same list from the next candidate.

/** A dropped candidate; `psp` and `limit` say which refusal it would give as the first one. */
export type Skip = { terminalId: string; reason: RouteSkipReason; psp?: boolean; limit?: ConnectionLimitCode };

export type Candidates = { rule: string; order: RoutingConfig["order"]; list: string[]; members: Map<string, Member> };

export type Served = { kind: "served"; member: Member; option: InstallmentOptionJson; index: number; skipped: Skip[] };
export type NoneServed = { kind: "none"; skipped: Skip[] };

/** What a member would cost for this charge, for `order: cheapest`; Infinity when it cannot price it. */
function costOf(m: Member, card: CardInfo | null, facts: RouteFacts, principal: number | null): number {
  const charge = isChargeable(m.pricing, card, facts.installment);
  if (charge.outcome === "rejected" || facts.amount === null) return charge.outcome === "rejected" ? Infinity : charge.option.rateBps;
  const base = m.pricing.commissionBasis === "gross" ? facts.amount : (principal ?? facts.amount);
  return commissionOn(base, charge.option.rateBps, charge.option.fixedFee);
}

export async function candidatesFor(
  q: Repos,
  routing: RoutingConfig,
  partner: PartnerRow,
  facts: RouteFacts,
  attemptId: string | null,
  principal: number | null,
): Promise<Candidates> {
  const ordered = orderCandidates(routing, facts, attemptId);
  const members = await loadMembers(q, ordered.candidates, partner);
  const cost = (id: string) => {
    const m = members.get(id);
    return m ? costOf(m, facts.card, facts, principal) : Infinity;
  };
  const list = routing.order === "cheapest" ? sortByCost(ordered.candidates, cost) : ordered.candidates;
  return { rule: ordered.rule, order: routing.order, list, members };
}

type AttemptContext = { partner: PartnerRow; payment: PaymentRow; card: CardInfo | null; routing: RoutingConfig; nowMs: number };

/**
 * Examines `list[start..]`: the static filters, then `limit_reached` (this payment's own
 * provisional usage left out: `exceptCode`) and `breaker_open`. The first survivor serves.
 */
export async function examineFrom(
  tx: Repos,
  deps: Deps,
  ctx: AttemptContext,
  candidates: Candidates,
  start: number,
  skippedBefore: readonly Skip[],
): Promise<Served | NoneServed> {
  const skipped = [...skippedBefore];
  const { payment, partner } = ctx;
  for (let index = start; index < candidates.list.length; index++) {
    const terminalId = candidates.list[index] as string;
    const member = candidates.members.get(terminalId);
    if (!member) {
      skipped.push({ terminalId, reason: "inactive" });
      continue;
    }
    const examined = examineStatic(member, partner.id, ctx.card, payment.installment, ctx.routing.onUsInstallments);
    if (!examined.ok) {
      skipped.push({ terminalId, reason: examined.reason, psp: examined.psp });
      continue;
    }
    const limit = await exceededConnectionLimit(tx, member.connection, payment.amount, ctx.nowMs, payment.code);
    if (limit !== null) {
      skipped.push({ terminalId, reason: "limit_reached", limit });
      continue;
    }
    if (!deps.banks.health.admits(member.connection.id)) {
      skipped.push({ terminalId, reason: "breaker_open" });
      continue;
    }
    return { kind: "served", member, option: examined.option, index, skipped };
  }
  return { kind: "none", skipped };
}

export const toRecord = (c: Candidates, skipped: readonly Skip[]): RouteRecord => ({
  rule: c.rule,
  order: c.order,
  skipped: skipped.map((s) => ({ terminalId: s.terminalId, reason: s.reason })),
});

/** The refusal a plain terminal's handoff gives for the first candidate's reason (docs/routing.md, No member serves). */
export type RouteRefusal = { code: ErrorCode; shown: boolean; counted: boolean };

export function refusalFor(first: Skip | undefined): RouteRefusal {
  switch (first?.reason) {
    case "installments_not_offered":
    case "not_on_us":
      return { code: "installment_not_allowed", shown: true, counted: true };
    case "card_not_accepted":
      return { code: "virtual_pos_card_type_not_supported", shown: false, counted: true };
    case "inactive":
      return { code: first.psp ? "psp_inactive" : "virtual_pos_inactive", shown: true, counted: false };
    case "limit_reached":
      return { code: first.limit ?? "pos_daily_limit_exceeded", shown: false, counted: false };
    default:
      // breaker_open, unavailable (or a router with no candidate at all): the generic page of a
      // connection limit; the log keeps the route's reasons.
      return { code: "virtual_pos_inactive", shown: false, counted: false };
  }
}
