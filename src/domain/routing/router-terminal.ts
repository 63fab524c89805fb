import { fail } from "../../errors";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import type { CardInfo, InstallmentOptionJson, QuoteRequest } from "../installments/types";
import { exceededConnectionLimit, type ConnectionLimitCode } from "../payments/connection-limits";
import { candidatesFor } from "./choose";
import { examineStatic, isActiveMember, loadMembers, type Member } from "./examine";
import type { PartnerRow, RoutingConfig, TerminalRow } from "../../store/rows";

// What a router offers before any card attempt (docs/routing.md, Before the card): its installment
// counts, where a new payment counts against the connection limits, and the options a BIN gets.

export type Router = TerminalRow & { routing: RoutingConfig };

export const isRouter = (t: TerminalRow): t is Router => t.routing !== null;

/** The members in fallback order, then any member the fallback does not list. */
const fallbackOrder = (r: RoutingConfig): string[] => [...new Set([...r.fallback, ...r.members])];

/** The active members, fallback order (inactive ones count for nothing: neither counts nor room). */
export async function activeMembers(q: Repos, router: Router, partner: PartnerRow): Promise<Member[]> {
  const members = await loadMembers(q, fallbackOrder(router.routing), partner);
  return [...members.values()].filter((m) => isActiveMember(m, partner.id));
}

/** The union of the active members' effective sets (each already capped by the partner), ascending. */
export function unionOfCounts(members: readonly Member[]): number[] {
  return [...new Set(members.flatMap((m) => m.pricing.effectiveInstallments))].sort((a, b) => a - b);
}

/**
 * The connection a new payment counts against: the first active member in fallback order whose
 * connection has room. `requireRoom` (API and panel creates): none has room is the 422 of the
 * fallback-first member's limit; a link payment, whose limits are a 3D-start refusal, counts
 * against the first active member instead.
 */
export async function placeAtCreate(
  q: Repos,
  members: readonly Member[],
  amount: number,
  nowMs: number,
  requireRoom: boolean,
): Promise<string> {
  let first: ConnectionLimitCode | null = null;
  for (const m of members) {
    const limit = await exceededConnectionLimit(q, m.connection, amount, nowMs, null);
    if (limit === null) return m.connection.id;
    first ??= limit;
  }
  if (requireRoom && first !== null) fail(first);
  const fallback = members[0];
  if (!fallback) fail("installment_not_allowed", "installment: no active member of the router offers it");
  return fallback.connection.id;
}

/** The member whose pricing the overview shows: the fallback-first active one (or the first at all). */
export async function overviewMember(q: Repos, router: Router, partner: PartnerRow): Promise<Member> {
  const active = await activeMembers(q, router, partner);
  const all = await loadMembers(q, fallbackOrder(router.routing), partner);
  const member = active[0] ?? [...all.values()][0];
  invariant(member, `router ${router.id} has no members`);
  return member;
}

/**
 * docs/routing.md, Installment options: per count, the option of the member routing would choose
 * for this BIN, count and baseAmount with the static filters only; counts no member serves are absent.
 */
export async function routerOptions(
  q: Repos,
  router: Router,
  partner: PartnerRow,
  bin8: string,
  card: CardInfo | null,
  request: QuoteRequest,
): Promise<InstallmentOptionJson[]> {
  const counts = unionOfCounts(await activeMembers(q, router, partner));
  const options: InstallmentOptionJson[] = [];
  for (const installment of counts) {
    const facts = { bin8, card, installment, amount: request.baseAmount ?? null };
    const candidates = await candidatesFor(q, router.routing, partner, facts, null, request.baseAmount ?? null);
    for (const id of candidates.list) {
      const member = candidates.members.get(id);
      const examined = member && examineStatic(member, partner.id, card, installment, router.routing.onUsInstallments, request);
      if (examined?.ok) {
        options.push(examined.option);
        break;
      }
    }
  }
  return options;
}
