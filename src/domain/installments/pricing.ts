import { toEffectiveInstallments } from "./options";
import type { CardFamily, TerminalPricing } from "./types";
import type { ConnectionRow, TerminalRow } from "../../store/rows";

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
