import { defaultShareBps, quoteAmounts } from "./math";
import { pickRate } from "./rates";
import type {
  CardFamily,
  CardInfo,
  InstallmentOptionJson,
  InstallmentOverviewJson,
  OptionGroupJson,
  QuoteRequest,
  RateRow,
  TerminalPricing,
} from "./types";

// Installment eligibility of docs/contract.md, The math / Options for a card. One evaluation, `checkCard` then
// `checkCount`, serves both the options list and the charge-time check, which is how 4.8's promise
// holds by construction: a count is listed exactly when it is chargeable, at the same row.

export type OptionsResult = { outcome: "ok"; options: InstallmentOptionJson[] } | { outcome: "family_not_allowed" };

/** docs/contract.md#why-an-installment-count-is-refused numbers the reasons of installment_not_allowed; 4 belongs to payment links. */
export type InstallmentRejectionReason = 1 | 2 | 3;

export type ChargeRejection =
  | { outcome: "rejected"; code: "terminal_not_allowed" }
  | { outcome: "rejected"; code: "virtual_pos_card_type_not_supported" }
  | { outcome: "rejected"; code: "installment_not_allowed"; reason: InstallmentRejectionReason };

export type ChargeResult = { outcome: "ok"; option: InstallmentOptionJson } | ChargeRejection;

/**
 * docs/seed.md, Partners, terminals and connections: the terminal's installment set capped by the partner's `installmentCap` (null =
 * no cap), de-duplicated and ascending, which is the order every list of options follows.
 */
export function toEffectiveInstallments(terminalCounts: readonly number[], installmentCap: number | null): number[] {
  const capped = terminalCounts.filter((count) => installmentCap === null || count <= installmentCap);
  return [...new Set(capped)].sort((a, b) => a - b);
}

/**
 * docs/contract.md#options-for-a-card options for a card (`null` = unresolved BIN) at a terminal: every count of the
 * effective set that `isChargeable` accepts, ascending, with amounts when `baseAmount` was sent.
 * A family outside `allowedCardFamilies` is the one case that is not a list (403, docs/decisions.md, Readings of the contract);
 * a card type the connection refuses is an empty list (4.8).
 */
export function optionsForCard(terminal: TerminalPricing, card: CardInfo | null, request: QuoteRequest = {}): OptionsResult {
  const refusal = checkCard(terminal, card);
  if (refusal?.code === "terminal_not_allowed") return { outcome: "family_not_allowed" };
  if (refusal !== null) return { outcome: "ok", options: [] };
  const options: InstallmentOptionJson[] = [];
  for (const count of toEffectiveInstallments(terminal.effectiveInstallments, null)) {
    const checked = checkCount(terminal, card, count);
    if ("row" in checked) options.push(toOption(terminal, checked.row, count, request));
  }
  return { outcome: "ok", options };
}

/**
 * Whether `count` can be charged with this card at this terminal, as the handoff will ask once the
 * BIN is known. Checks run in docs/checkout.md order: family (terminal_not_allowed), card type the
 * connection accepts (virtual_pos_card_type_not_supported), then installment eligibility
 * (installment_not_allowed with its 7.4 reason). On success the option is the one
 * `optionsForCard` lists for that count: same row, same amounts.
 */
export function isChargeable(terminal: TerminalPricing, card: CardInfo | null, count: number, request: QuoteRequest = {}): ChargeResult {
  const refusal = checkCard(terminal, card);
  if (refusal !== null) return refusal;
  const checked = checkCount(terminal, card, count);
  if (!("row" in checked)) return checked;
  return { outcome: "ok", option: toOption(terminal, checked.row, count, request) };
}

/**
 * Card-level checks. `allowedCardFamilies` is an allow-list: an unresolved BIN has no family to
 * find in it, so a terminal that restricts families refuses unresolved BINs too; a terminal
 * without the list (null) accepts them. Debit is refused only by `acceptsDebit` and foreign only
 * by `acceptsForeignCards`; prepaid cards are not debit cards for that switch.
 */
function checkCard(terminal: TerminalPricing, card: CardInfo | null): ChargeRejection | null {
  const allowed = terminal.allowedCardFamilies;
  if (allowed !== null && (card === null || !allowed.includes(card.family))) {
    return { outcome: "rejected", code: "terminal_not_allowed" };
  }
  const family: CardFamily | null = card?.family ?? null;
  if ((family === "foreign" && !terminal.acceptsForeignCards) || (family === "debit" && !terminal.acceptsDebit)) {
    return { outcome: "rejected", code: "virtual_pos_card_type_not_supported" };
  }
  return null;
}

/**
 * Count-level checks, in the order of the 7.4 reasons as a buyer meets them: the terminal does not
 * offer the count at all (2), the card cannot split a charge (1: only credit cards whose BIN does
 * not block installments, so never an unresolved BIN), no rate row prices this count for this
 * card (3, read broadly: it also covers a count with no row for any card, since 4.8 lists only
 * counts with a rate).
 */
function checkCount(terminal: TerminalPricing, card: CardInfo | null, count: number): { row: RateRow } | ChargeRejection {
  if (!terminal.effectiveInstallments.includes(count)) return notAllowed(2);
  const canSplit = card !== null && card.family === "credit" && card.installments;
  if (count > 1 && !canSplit) return notAllowed(1);
  const row = pickRate(terminal.rates, count, card, terminal.bank);
  return row === null ? notAllowed(3) : { row };
}

function notAllowed(reason: InstallmentRejectionReason): ChargeRejection {
  return { outcome: "rejected", code: "installment_not_allowed", reason };
}

/** docs/contract.md#the-installment-option option; the amount fields are null together when `baseAmount` is absent. */
export function toOption(terminal: TerminalPricing, row: RateRow, count: number, request: QuoteRequest): InstallmentOptionJson {
  const base = { installmentCount: count, rateBps: row.rateBps, fixedFee: row.fixedFee };
  const baseAmount = request.baseAmount ?? null;
  if (baseAmount === null) {
    return { ...base, baseAmount: null, commissionAmount: null, customerShareAmount: null, totalAmount: null };
  }
  const amounts = quoteAmounts({
    baseAmount,
    rateBps: row.rateBps,
    fixedFee: row.fixedFee,
    shareBps: request.shareBps ?? defaultShareBps(terminal.commissionBasis),
    basis: terminal.commissionBasis,
  });
  return { ...base, baseAmount, ...amounts };
}

// Overview groups (docs/contract.md, The overview / The math "the same, without a BIN"). A group is a kind of
// card a buyer may hold, and its options are exactly what `optionsForCard` gives a representative
// card of that kind, so the overview can never promise what a real card would not get:
// - credit: one group per brand named by a rate row whose count is in the effective set, plus a
//   brand-null group for every other brand or none; the card may split charges;
// - debit, prepaid, foreign: one brand-less group each (single charge; loyalty brands are credit
//   programmes);
// - cardType null: unresolved BINs (brand-less rows, count 1).
// Each kind is priced twice, as an on-us card (issued by the terminal's bank) and an off-us one.
// Same options both ways: the issuer does not matter, one group with `onUs` null. Otherwise one
// group per non-empty variant, `onUs` true or false. `onUsRequired` is set on on-us groups only:
// true when the group holds a count that off-us cards of the kind cannot get at all (the issuer
// decides availability), false when only prices differ; null elsewhere. Foreign cards and
// unresolved BINs are never on-us. Kinds the terminal refuses (family not allowed, card type
// refused) or without options are left out. Order: credit, debit, prepaid, foreign, unresolved;
// brands ascending with "other brands" last; on-us before off-us. `maximums` holds, per group and
// in the same order, the group's option with the highest count.

type CardKind = { cardType: CardFamily | null; cardBrand: string | null };

/** docs/contract.md#the-overview overview of a terminal, without a BIN. */
export function overviewFor(terminal: TerminalPricing, request: QuoteRequest = {}): InstallmentOverviewJson {
  const optionGroups = listCardKinds(terminal).flatMap((kind) => groupsOfKind(terminal, kind, request));
  const maximums = optionGroups.map(({ cardType, onUs, cardBrand, options }) => ({
    // Groups are never empty and options ascend, so the last option has the highest count.
    option: options[options.length - 1] as InstallmentOptionJson,
    source: { cardType, onUs, cardBrand },
  }));
  return { commissionBasis: terminal.commissionBasis, maximums, optionGroups };
}

function listCardKinds(terminal: TerminalPricing): CardKind[] {
  const brands = new Set<string>();
  for (const row of terminal.rates) {
    if (row.brand !== null && terminal.effectiveInstallments.includes(row.count)) brands.add(row.brand);
  }
  return [
    ...[...brands].sort().map((cardBrand): CardKind => ({ cardType: "credit", cardBrand })),
    { cardType: "credit", cardBrand: null },
    { cardType: "debit", cardBrand: null },
    { cardType: "prepaid", cardBrand: null },
    { cardType: "foreign", cardBrand: null },
    { cardType: null, cardBrand: null },
  ];
}

function groupsOfKind(terminal: TerminalPricing, kind: CardKind, request: QuoteRequest): OptionGroupJson[] {
  const offUs = optionsOfKind(terminal, kind, null, request);
  const canBeOnUs = terminal.bank !== null && kind.cardType !== null && kind.cardType !== "foreign";
  const onUs = canBeOnUs ? optionsOfKind(terminal, kind, terminal.bank, request) : offUs;
  if (JSON.stringify(onUs) === JSON.stringify(offUs)) {
    return offUs.length === 0 ? [] : [toGroup(kind, null, null, offUs)];
  }
  const groups: OptionGroupJson[] = [];
  if (onUs.length > 0) {
    const offUsCounts = new Set(offUs.map((option) => option.installmentCount));
    const onUsRequired = onUs.some((option) => !offUsCounts.has(option.installmentCount));
    groups.push(toGroup(kind, true, onUsRequired, onUs));
  }
  if (offUs.length > 0) groups.push(toGroup(kind, false, null, offUs));
  return groups;
}

function toGroup(kind: CardKind, onUs: boolean | null, onUsRequired: boolean | null, options: InstallmentOptionJson[]): OptionGroupJson {
  return { cardType: kind.cardType, onUs, cardBrand: kind.cardBrand, onUsRequired, options };
}

/** Options of a representative card of the kind; `bank` null makes it an off-us card. */
function optionsOfKind(terminal: TerminalPricing, kind: CardKind, bank: string | null, request: QuoteRequest): InstallmentOptionJson[] {
  const card: CardInfo | null =
    kind.cardType === null ? null : { brand: kind.cardBrand, family: kind.cardType, bank, installments: kind.cardType === "credit" };
  const result = optionsForCard(terminal, card, request);
  return result.outcome === "ok" ? result.options : [];
}
