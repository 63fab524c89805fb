import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { isChargeable } from "../installments/options";
import { toTerminalPricing } from "../installments/pricing";
import type { CardInfo, InstallmentOptionJson, QuoteRequest, TerminalPricing } from "../installments/types";
import type { ConnectionRow, PartnerRow, TerminalRow } from "../../store/rows";
import type { RouteSkipReason } from "../../store/rows-money";

// One member examined against the filters of docs/routing.md, Reasons, in their order. The static
// ones (what the member is and offers) are here; limits and the breaker, which change from one
// moment to the next, are added by choose.ts for a card attempt only.

/** A member with what its filters read: its connection, whether its PSP is active, its pricing. */
export type Member = { terminal: TerminalRow; connection: ConnectionRow; pspActive: boolean; pricing: TerminalPricing };

export type StaticReason = Extract<RouteSkipReason, "inactive" | "card_not_accepted" | "installments_not_offered" | "not_on_us">;

/** The option the member would charge, or why it cannot serve; `psp` says which `inactive` it is. */
export type Examined = { ok: true; option: InstallmentOptionJson } | { ok: false; reason: StaticReason; psp: boolean };

export async function loadMember(q: Repos, id: string, partner: PartnerRow): Promise<Member | null> {
  const terminal = await q.catalog.terminal(id);
  if (!terminal) return null;
  const connection = await q.catalog.connection(terminal.connectionId);
  invariant(connection, `terminal ${id} refers to a missing connection`);
  const pspActive = (await q.catalog.psp(connection.pspId))?.active ?? false;
  return { terminal, connection, pspActive, pricing: toTerminalPricing(terminal, connection, partner.installmentCap) };
}

/** The members in the order given; a member removed from the store since the seed is left out. */
export async function loadMembers(q: Repos, ids: readonly string[], partner: PartnerRow): Promise<Map<string, Member>> {
  const members = new Map<string, Member>();
  for (const id of ids) {
    const member = await loadMember(q, id, partner);
    if (member) members.set(id, member);
  }
  return members;
}

/** Terminal, connection and PSP active, and still a plain terminal of the router's partner. */
export function isActiveMember(m: Member, partnerId: string): boolean {
  return m.terminal.active && m.terminal.partnerId === partnerId && m.terminal.routing === null && m.connection.active && m.pspActive;
}

/**
 * inactive, card_not_accepted, installments_not_offered, not_on_us, in this order. The card and
 * count checks are the ones a plain terminal's handoff makes (isChargeable), so a member serves
 * exactly what it would serve as a terminal of its own.
 */
export function examineStatic(
  m: Member,
  partnerId: string,
  card: CardInfo | null,
  installment: number,
  onUsInstallments: boolean,
  request: QuoteRequest = {},
): Examined {
  if (!isActiveMember(m, partnerId))
    return { ok: false, reason: "inactive", psp: m.terminal.active && m.connection.active && !m.pspActive };
  const charge = isChargeable(m.pricing, card, installment, request);
  if (charge.outcome === "rejected") {
    const reason = charge.code === "installment_not_allowed" ? "installments_not_offered" : "card_not_accepted";
    return { ok: false, reason, psp: false };
  }
  const onUs = card?.bank != null && card.bank === m.terminal.bank;
  if (installment > 1 && onUsInstallments && !onUs) return { ok: false, reason: "not_on_us", psp: false };
  return { ok: true, option: charge.option };
}
