import { Sensitive } from "../../sensitive";

/**
 * Grapheme segmentation, so that a letter written as base + combining mark (a decomposed "İ"
 * is "I" + U+0307) or an emoji counts as one character, as a reader would count it.
 */
const graphemes = new Intl.Segmenter("tr", { granularity: "grapheme" });

/** Whitespace runs are kept exactly as sent; everything between them is a word. */
const WHITESPACE_RUN = /(\s+)/u;

function maskWord(word: string): string {
  const chars = Array.from(graphemes.segment(word), (part) => part.segment);
  // Two characters stay visible, one for a one-letter word; a two-letter word therefore stays
  // whole, which the interface's rule implies and which keeps short names like "Al" readable.
  const visible = Math.min(chars.length, 2);
  return chars.slice(0, visible).join("") + "*".repeat(chars.length - visible);
}

/**
 * The payer name as the payment page shows it (docs/contract.md, Items and payerName): per word the first two
 * characters visible, the rest `*`, word length (in characters, not UTF-16 units) preserved.
 * "Ayşe Yılmaz" -> "Ay** Yı****". A hyphenated name is one word ("Ayşe-Nur" -> "Ay******").
 */
export function maskPayerName(name: string): string {
  return name
    .split(WHITESPACE_RUN)
    .map((part, index) => (index % 2 === 1 ? part : maskWord(part)))
    .join("");
}

const PAN = /^[0-9]{13,19}$/;

/**
 * `maskedPan` of docs/contract.md, Payments: first 6 + "******" + last 4, whatever the PAN's length, so the
 * masked form never reveals how long the number was. Accepts the PAN still wrapped as
 * `Sensitive` so callers need no `reveal()` of their own. A value that is not a 13-19 digit
 * PAN is our bug (card data is validated before this point), hence a throw and not a result.
 */
export function maskPan(pan: string | Sensitive<string>): string {
  const digits = pan instanceof Sensitive ? pan.reveal() : pan;
  if (!PAN.test(digits)) throw new RangeError("maskPan: expected a PAN of 13-19 digits");
  return `${digits.slice(0, 6)}******${digits.slice(-4)}`;
}
