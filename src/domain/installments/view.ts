import type { OptionsQuote } from "./service";
import type { CardFamily, InstallmentOptionJson } from "./types";

// docs/contract.md#the-overview needs no view here: overviewFor (options.ts) builds InstallmentOverviewJson itself.

/** docs/contract.md#options-for-a-card response body, fields in the order of its table. */
export type InstallmentOptionsJson = {
  cardBrand: string | null;
  cardFamily: CardFamily | null;
  cardBank: string | null;
  options: InstallmentOptionJson[];
  commissionBasis: "gross" | "net";
};

/**
 * Card facts come from the BIN table as they are; an unresolved BIN gives three nulls (4.8).
 * `commissionBasis` is always present, even when `options` is empty.
 */
export function toInstallmentOptionsJson(quote: OptionsQuote): InstallmentOptionsJson {
  return {
    cardBrand: quote.card?.brand ?? null,
    cardFamily: quote.card?.family ?? null,
    cardBank: quote.card?.bank ?? null,
    options: quote.options,
    commissionBasis: quote.pricing.commissionBasis,
  };
}
