/**
 * Turkish display of kuruş amounts: "1.234,56 TL". Built from the integer's decimal digits
 * rather than `Intl.NumberFormat` on `kurus / 100`, because that division is floating point and
 * stops being exact long before `Number.MAX_SAFE_INTEGER`, and ICU data differs between runtimes.
 */

/** Groups of three from the right, joined by ".": "1234567" -> "1.234.567". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(?:[0-9]{3})+$)/g, ".");
}

/**
 * `kurus` must be a safe integer (docs/contract.md, Identifiers and formats: larger amounts are refused at the API). A bigint
 * is accepted too, for the installment math that works in bigint (docs/contract.md, The math).
 */
export function formatTry(kurus: number | bigint): string {
  if (typeof kurus === "number" && !Number.isSafeInteger(kurus)) {
    throw new RangeError("formatTry: amount must be a safe integer number of kuruş");
  }
  const value = BigInt(kurus);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(3, "0");
  const lira = groupThousands(digits.slice(0, -2));
  const sign = negative ? "-" : "";
  return `${sign}${lira},${digits.slice(-2)} TL`;
}
