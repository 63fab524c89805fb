import { fail } from "../../errors";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { AmountOverflowError } from "./math";
import { isRouter, overviewMember, routerOptions } from "../routing/router-terminal";
import { optionsForCard, overviewFor } from "./options";
import { toTerminalPricing } from "./pricing";
import type { BinRow, InstallmentOptionJson, InstallmentOverviewJson, QuoteRequest, TerminalPricing } from "./types";
import type { ConnectionRow, PartnerRow, TerminalRow } from "../../store/rows";

// Loads what the pure installment code needs (types.ts) from the store. Options (4.8), the
// overview (4.9) and, later, the handoff's charge-time check all go through
// `resolveCardForTerminal` / `resolveTerminal`, so a listed option and a charged one are priced
// from the same rows by the same code.

export type ResolvedTerminal = { terminal: TerminalRow; connection: ConnectionRow; pricing: TerminalPricing };

export type ResolvedCard = ResolvedTerminal & { card: BinRow | null };

export type OptionsQuote = { card: BinRow | null; pricing: TerminalPricing; options: InstallmentOptionJson[] };

/**
 * docs/contract.md, Options for a card / Create a payment: the terminal must exist, belong to the caller and be active, else 403
 * terminal_not_allowed; the three cases are not told apart, so nobody can probe other
 * partners' terminal ids. An inactive bank connection or PSP does not change options: that is a
 * handoff-stage refusal (7.3, `virtual_pos_inactive` / `psp_inactive`) which clears when the
 * operator fixes it, while options describe what the terminal offers.
 */
export async function resolveTerminal(q: Repos, terminalId: string, partner: PartnerRow): Promise<ResolvedTerminal> {
  const terminal = await ownedTerminal(q, terminalId, partner);
  const connection = await q.catalog.connection(terminal.connectionId);
  invariant(connection, `terminal ${terminal.id} refers to a missing connection`);
  return { terminal, connection, pricing: toTerminalPricing(terminal, connection, partner.installmentCap) };
}

/** The terminal or router, active and the caller's, else 403 (the three cases look the same). */
export async function ownedTerminal(q: Repos, terminalId: string, partner: PartnerRow): Promise<TerminalRow> {
  const terminal = await q.catalog.terminal(terminalId);
  if (!terminal || terminal.partnerId !== partner.id || !terminal.active) {
    fail("terminal_not_allowed", "terminalId: not an active terminal of this account");
  }
  return terminal;
}

/**
 * The terminal, its connection, the card's BIN row (null when the BIN is not in the table) and
 * the pricing inputs, for options now and for the payment handoff later.
 */
export async function resolveCardForTerminal(q: Repos, terminalId: string, partner: PartnerRow, bin8: string): Promise<ResolvedCard> {
  const resolved = await resolveTerminal(q, terminalId, partner);
  return { ...resolved, card: (await q.catalog.bin(bin8)) ?? null };
}

/** docs/contract.md, Options for a card: options for a BIN at a terminal; 403 when the card's family is not allowed there. */
export async function quoteOptions(
  q: Repos,
  partner: PartnerRow,
  input: { terminalId: string; bin: string } & QuoteRequest,
): Promise<OptionsQuote> {
  const terminal = await ownedTerminal(q, input.terminalId, partner);
  if (isRouter(terminal)) {
    // docs/routing.md, Installment options: each count from the member routing would choose.
    const card = (await q.catalog.bin(input.bin)) ?? null;
    const pricing = (await overviewMember(q, terminal, partner)).pricing;
    return { card, pricing, options: await guardAsync(() => routerOptions(q, terminal, partner, input.bin, card, toRequest(input))) };
  }
  const { card, pricing } = await resolveCardForTerminal(q, input.terminalId, partner, input.bin);
  const result = guardAmounts(() => optionsForCard(pricing, card, toRequest(input)));
  if (result.outcome === "family_not_allowed") {
    fail("terminal_not_allowed", "bin: this card family is not allowed at the terminal");
  }
  return { card, pricing, options: result.options };
}

/** docs/contract.md, The overview: the overview of a terminal, without a BIN. */
export async function quoteOverview(
  q: Repos,
  partner: PartnerRow,
  input: { terminalId: string } & QuoteRequest,
): Promise<InstallmentOverviewJson> {
  const terminal = await ownedTerminal(q, input.terminalId, partner);
  // A router's overview is its fallback-first member's (docs/routing.md, Installment options).
  const pricing = isRouter(terminal)
    ? (await overviewMember(q, terminal, partner)).pricing
    : (await resolveTerminal(q, terminal.id, partner)).pricing;
  return guardAmounts(() => overviewFor(pricing, toRequest(input)));
}

function toRequest(input: QuoteRequest): QuoteRequest {
  return { baseAmount: input.baseAmount ?? null, shareBps: input.shareBps ?? null };
}

/**
 * docs/contract.md, Identifiers and formats: an amount above Number.MAX_SAFE_INTEGER is a validation error. Each input may be
 * valid while the total they produce is not (a base near 2^53 plus the buyer's share), so the
 * overflow is the caller's request being too large: 400 naming baseAmount, never a 500.
 */
function guardAmounts<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    return overflowed(error);
  }
}

async function guardAsync<T>(compute: () => Promise<T>): Promise<T> {
  try {
    return await compute();
  } catch (error) {
    return overflowed(error);
  }
}

function overflowed(error: unknown): never {
  if (error instanceof AmountOverflowError) {
    fail("validation_error", `baseAmount: with this share the ${error.field} would exceed ${Number.MAX_SAFE_INTEGER}`);
  }
  throw error;
}
