import { looksLikeIban } from "./iban";
import { looksLikeCardNumber } from "./luhn";

/** One free-text request field, named by the path that goes into the error message. */
export type FreeTextField = { path: string; value: string | null | undefined };

/** True when the whole value is a card number or an IBAN (interface 4.1.2). */
export function isSensitiveText(value: string): boolean {
  return looksLikeCardNumber(value) || looksLikeIban(value);
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
