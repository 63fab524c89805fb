import { fail } from "../../errors";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { AmountOverflowError } from "./math";
import { optionsForCard, overviewFor, toEffectiveInstallments } from "./options";
import type { BinRow, CardFamily, InstallmentOptionJson, InstallmentOverviewJson, QuoteRequest, TerminalPricing } from "./types";
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
  const terminal = await q.catalog.terminal(terminalId);
  if (!terminal || terminal.partnerId !== partner.id || !terminal.active) {
    fail("terminal_not_allowed", "terminalId: not an active terminal of this account");
  }
  const connection = await q.catalog.connection(terminal.connectionId);
  invariant(connection, `terminal ${terminal.id} refers to a missing connection`);
  return { terminal, connection, pricing: toTerminalPricing(terminal, connection, partner.installmentCap) };
}

/**
 * The terminal, its connection, the card's BIN row (null when the BIN is not in the table) and
 * the pricing inputs, for options now and for the payment handoff later.
 */
export async function resolveCardForTerminal(q: Repos, terminalId: string, partner: PartnerRow, bin8: string): Promise<ResolvedCard> {
  const resolved = await resolveTerminal(q, terminalId, partner);
  return { ...resolved, card: (await q.catalog.bin(bin8)) ?? null };
}

/** docs/seed.md#partners-terminals-and-connections terminal + connection + the partner's cap, as the pure code reads them. */
export function toTerminalPricing(terminal: TerminalRow, connection: ConnectionRow, installmentCap: number | null): TerminalPricing {
  return {
    commissionBasis: terminal.commissionBasis,
    effectiveInstallments: toEffectiveInstallments(terminal.installments, installmentCap),
    rates: terminal.rates,
    bank: terminal.bank,
    // The seed validates families against CARD_FAMILIES, so the stored strings are CardFamily.
    allowedCardFamilies: terminal.allowedCardFamilies as CardFamily[] | null,
    acceptsForeignCards: connection.acceptsForeignCards,
    acceptsDebit: connection.acceptsDebit,
  };
}

/** docs/contract.md, Options for a card: options for a BIN at a terminal; 403 when the card's family is not allowed there. */
export async function quoteOptions(
  q: Repos,
  partner: PartnerRow,
  input: { terminalId: string; bin: string } & QuoteRequest,
): Promise<OptionsQuote> {
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
  const { pricing } = await resolveTerminal(q, input.terminalId, partner);
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
    if (error instanceof AmountOverflowError) {
      fail("validation_error", `baseAmount: with this share the ${error.field} would exceed ${Number.MAX_SAFE_INTEGER}`);
    }
    throw error;
  }
}
