import { stripSeparators } from "./luhn";

/**
 * ISO 13616 shape: country letters, two check digits, then the national account number.
 * The shortest IBAN in use is 15 characters (Norway), the longest allowed is 34. Turkish IBANs
 * (TR + 24 digits) are one case of this; no per-country table is kept on purpose, because this
 * check only spots account numbers in free text and a wider net is the safer mistake.
 * Checked on the raw value, before upper-casing, so that letters such as "ı" or "ß" (whose
 * upper case is ASCII or longer) cannot sneak in.
 */
const IBAN_SHAPE = /^[A-Za-z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/;

/**
 * ISO 7064 mod 97-10 over the IBAN with its first four characters moved to the end and
 * letters replaced by 10..35. Computed digit by digit so the number never leaves the safe range.
 */
function ibanRemainder(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    const value = code <= 57 ? code - 48 : code - 55;
    remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
  }
  return remainder;
}

/**
 * True when the WHOLE value, after removing spaces and hyphens, is an IBAN whose mod-97 check
 * holds (case-insensitive). Embedded IBANs in longer text are not a match (docs/contract.md, Items and payerName).
 */
export function looksLikeIban(text: string): boolean {
  const compact = stripSeparators(text);
  if (!IBAN_SHAPE.test(compact)) return false;
  return ibanRemainder(compact.toUpperCase()) === 1;
}
