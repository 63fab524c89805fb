/**
 * Luhn (mod 10) checks for card numbers: used to refuse bad card data at the handoff
 * (docs/checkout.md, Card data) and to spot a card number pasted into a free-text field (docs/contract.md, Items and payerName).
 */

/** Card numbers are 13 to 19 digits long (ISO/IEC 7812). */
const CARD_NUMBER = /^[0-9]{13,19}$/;

/**
 * Separators people type inside card numbers and IBANs: any whitespace (NBSP included, so a
 * copy-pasted number is still caught) and hyphen or dash characters.
 */
export const SEPARATORS = /[\s\-\u2010-\u2015\u2212]/gu;

/** Removes the separators of `SEPARATORS` so the whole remaining value can be matched. */
export function stripSeparators(text: string): string {
  return text.replace(SEPARATORS, "");
}

/** True when `digits` is a non-empty string of ASCII digits whose Luhn checksum is 0. */
export function isLuhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  // Walk from the right: every second digit, starting with the one left of the check digit,
  // is doubled, and a two-digit product contributes the sum of its digits (n * 2 - 9).
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let n = digits.charCodeAt(i) - 48;
    if (double) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/**
 * True when the WHOLE value, after removing spaces and hyphens, is 13-19 digits passing Luhn.
 * A number embedded in other text ("Order 4000001100000009") is deliberately not a match.
 */
export function looksLikeCardNumber(text: string): boolean {
  const compact = stripSeparators(text);
  return CARD_NUMBER.test(compact) && isLuhnValid(compact);
}
