import type { CardInfo, RateRow, TerminalPricing } from "../../../src/domain/installments/types";

// Cards of the simulated bank (product.md 6 test-card table) and terminals shaped like the demo
// seed (product.md 15), for the installment tests.

export const BANK_A = "Demo Bank A";
export const BANK_B = "Demo Bank B";

export const CARDS = {
  bonusA: { brand: "bonus", family: "credit", bank: BANK_A, installments: true },
  worldB: { brand: "world", family: "credit", bank: BANK_B, installments: true },
  maximumC: { brand: "maximum", family: "credit", bank: "Demo Bank C", installments: true },
  debitA: { brand: null, family: "debit", bank: BANK_A, installments: false },
  prepaidB: { brand: null, family: "prepaid", bank: BANK_B, installments: false },
  foreign: { brand: null, family: "foreign", bank: null, installments: false },
  bonusBlocked: { brand: "bonus", family: "credit", bank: BANK_A, installments: false },
  brandlessCreditA: { brand: null, family: "credit", bank: BANK_A, installments: true },
  bonusUnknownBank: { brand: "bonus", family: "credit", bank: null, installments: true },
} as const satisfies Record<string, CardInfo>;

export type CardName = keyof typeof CARDS | "unresolved";

export function cardOf(name: CardName): CardInfo | null {
  return name === "unresolved" ? null : CARDS[name];
}

export function rate(count: number, rateBps: number, extra: Partial<RateRow> = {}): RateRow {
  return { count, brand: null, onUs: null, rateBps, fixedFee: null, ...extra };
}

/** The demo seed's T-1001 (product.md 15), with its partner's installmentCap of 12 applied. */
export function demoTerminal(patch: Partial<TerminalPricing> = {}): TerminalPricing {
  return {
    commissionBasis: "gross",
    effectiveInstallments: [1, 2, 3, 6, 9, 12],
    rates: [rate(1, 199), rate(3, 450, { fixedFee: 100 }), rate(3, 420, { brand: "bonus" })],
    bank: BANK_A,
    allowedCardFamilies: null,
    acceptsForeignCards: false,
    acceptsDebit: true,
    ...patch,
  };
}

/** A terminal whose prices depend on the issuer: on-us cards get a cheaper single charge and 6. */
export function onUsTerminal(patch: Partial<TerminalPricing> = {}): TerminalPricing {
  return demoTerminal({
    effectiveInstallments: [1, 3, 6],
    rates: [rate(1, 199), rate(1, 150, { onUs: true }), rate(3, 450), rate(6, 600, { onUs: true })],
    acceptsForeignCards: true,
    ...patch,
  });
}
