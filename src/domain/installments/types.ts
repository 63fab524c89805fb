// Shapes of the installment math (docs/contract.md, The math / The installment option / Options for a card / The overview). Pure data: the store
// loads terminals and BIN rows into these, the views render the `*Json` shapes as they are.

/** Gross: the rate applies to the amount charged to the buyer. Net: to the principal (4.8). */
export type CommissionBasis = "gross" | "net";

export type CardFamily = "credit" | "debit" | "prepaid" | "foreign";

export const CARD_FAMILIES: readonly CardFamily[] = ["credit", "debit", "prepaid", "foreign"];

/**
 * One rate row of a terminal (docs/seed.md, Partners, terminals and connections). `brand` null = any brand; `onUs` null = any issuer,
 * true = cards issued by the terminal's own bank, false = cards of any other or unknown issuer
 * (see rates.ts for why false is the exact complement of true). `rateBps` 0-9999,
 * `fixedFee` >= 0 kuruş or null when the row has none.
 */
export type RateRow = {
  count: number;
  brand: string | null;
  onUs: boolean | null;
  rateBps: number;
  fixedFee: number | null;
};

/** What the BIN table says about a card; a `null` CardInfo means the BIN is unresolved. */
export type CardInfo = {
  brand: string | null;
  family: CardFamily;
  bank: string | null;
  /** False when the issuer blocks installments on this BIN: single charge only. */
  installments: boolean;
};

/** One row of the BIN table, as `kasa bins import` and the seed file carry it. */
export type BinRow = CardInfo & { bin: string };

/**
 * Everything about a terminal and its bank connection that decides which options a card gets.
 * `effectiveInstallments` is the terminal's set already capped by the partner (docs/seed.md, Partners, terminals and connections; see
 * `toEffectiveInstallments`). `allowedCardFamilies` null means every family is allowed.
 */
export type TerminalPricing = {
  commissionBasis: CommissionBasis;
  effectiveInstallments: number[];
  rates: RateRow[];
  bank: string | null;
  allowedCardFamilies: CardFamily[] | null;
  acceptsForeignCards: boolean;
  acceptsDebit: boolean;
};

/** docs/contract.md, The installment option, field for field. The amount fields are all null when `baseAmount` was not sent. */
export type InstallmentOptionJson = {
  installmentCount: number;
  rateBps: number;
  fixedFee: number | null;
  baseAmount: number | null;
  commissionAmount: number | null;
  customerShareAmount: number | null;
  totalAmount: number | null;
};

/** docs/contract.md#the-overview `source` of a maximum and the key of an option group (see options.ts). */
export type OptionGroupSourceJson = {
  cardType: CardFamily | null;
  onUs: boolean | null;
  cardBrand: string | null;
};

export type OptionGroupJson = OptionGroupSourceJson & {
  onUsRequired: boolean | null;
  options: InstallmentOptionJson[];
};

/** docs/contract.md#the-overview response body. */
export type InstallmentOverviewJson = {
  commissionBasis: CommissionBasis;
  maximums: { option: InstallmentOptionJson; source: OptionGroupSourceJson }[];
  optionGroups: OptionGroupJson[];
};

/** The amount inputs of 4.8 / 4.9; `shareBps` defaults by basis (`defaultShareBps`). */
export type QuoteRequest = {
  baseAmount?: number | null;
  shareBps?: number | null;
};
