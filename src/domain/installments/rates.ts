import type { CardInfo, RateRow } from "./types";

// Rate-row selection (docs/decisions.md, Readings of the contract "Rate rows"): the most specific applicable row wins, in the
// order brand and on-us, then brand, then on-us, then generic.
//
// Meaning of `onUs` on a row. "On-us" is a predicate on (card, terminal): the card's issuing bank
// is known and equals the terminal's `bank`. A row with `onUs: true` applies when the predicate
// holds, `onUs: false` when it does not, `onUs: null` either way. So `false` means "every card
// not proven to be the terminal bank's own", which includes cards whose issuer is unknown and
// unresolved BINs. We chose the complement over "issuer known and different" so that a terminal
// pricing on-us and off-us cards with one true row and one false row covers every card, and an
// unknown issuer gets the off-us price, never the on-us one (16: an on-us row never applies to an
// off-us card). Both true and false rows rank as "on-us specific".

/**
 * Whether the card is issued by the terminal's own bank. Names are compared exactly: each is
 * typed once by the operator (terminal, BIN table), and a loose match could hand on-us prices to
 * the wrong issuer.
 */
export function isOnUs(card: CardInfo | null, terminalBank: string | null): boolean {
  return card !== null && card.bank !== null && terminalBank !== null && card.bank === terminalBank;
}

/**
 * The row that prices `count` for this card at this terminal, or null when none applies.
 * `card` null is an unresolved BIN: only brand-less rows can apply, and never an on-us row.
 * A brand row applies only to a card of exactly that brand. Rows tied on specificity are a
 * configuration error (`findRateConflict`); should one slip through, the first row wins so the
 * answer is still stable.
 */
export function pickRate(rows: readonly RateRow[], count: number, card: CardInfo | null, terminalBank: string | null): RateRow | null {
  const onUs = isOnUs(card, terminalBank);
  const brand = card?.brand ?? null;
  let best: RateRow | null = null;
  let bestRank = -1;
  for (const row of rows) {
    if (row.count !== count) continue;
    if (row.brand !== null && row.brand !== brand) continue;
    if (row.onUs !== null && row.onUs !== onUs) continue;
    const rank = rankOf(row);
    if (rank > bestRank) {
      best = row;
      bestRank = rank;
    }
  }
  return best;
}

/**
 * The first row that repeats the (count, brand, onUs) key of an earlier row, or null. Two such
 * rows leave "the most specific row" undefined, so the seed and terminal validators reject them.
 */
export function findRateConflict(rows: readonly RateRow[]): RateRow | null {
  const seen = new Set<string>();
  for (const row of rows) {
    const key = JSON.stringify([row.count, row.brand, row.onUs]);
    if (seen.has(key)) return row;
    seen.add(key);
  }
  return null;
}

/** Specificity of 16: brand counts more than on-us, so brand+onUs 3, brand 2, onUs 1, generic 0. */
function rankOf(row: RateRow): number {
  return (row.brand !== null ? 2 : 0) + (row.onUs !== null ? 1 : 0);
}
