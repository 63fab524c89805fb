import { looksLikeIban } from "./iban";
import { looksLikeCardNumber } from "./luhn";

/** One free-text request field, named by the path that goes into the error message. */
export type FreeTextField = { path: string; value: string | null | undefined };

/**
 * docs/decisions.md, Hardening: what a reader (or a bank form) would still see as the number. NFKC folds full-width
 * and other compatibility digits and letters to ASCII; format characters (Unicode Cf: zero-width
 * space, soft hyphen, BOM...) are invisible; spaces, hyphens, dots and slashes are how people
 * group digits.
 */
const INVISIBLE_OR_GROUPING = /[\p{Cf}\s\-\u2010-\u2015\u2212./]/gu;

export const normaliseForNumberCheck = (value: string): string => value.normalize("NFKC").replace(INVISIBLE_OR_GROUPING, "");

/** True when the whole value, once normalised, is a card number or an IBAN (docs/contract.md, Items and payerName). */
export function isSensitiveText(value: string): boolean {
  const compact = normaliseForNumberCheck(value);
  return looksLikeCardNumber(compact) || looksLikeIban(compact);
}

/**
 * Path of the first field whose whole value is a card number or an IBAN, or null when none is.
 * Fields are checked in the order given, so the caller decides which path the 400
 * `sensitive_data_not_allowed` names (e.g. items[0].name, items[0].note, ..., payerName).
 * Absent and null values are skipped: they carry nothing to leak.
 */
export function findSensitiveField(fields: readonly FreeTextField[]): string | null {
  for (const field of fields) {
    if (typeof field.value === "string" && isSensitiveText(field.value)) return field.path;
  }
  return null;
}
