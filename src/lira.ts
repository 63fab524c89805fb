/**
 * Kuruş as lira with a dot and two decimals (`1234.56`): what EST's wire and the payout export
 * write. String arithmetic, never a float.
 */
export function toLira(kurus: number): string {
  if (!Number.isSafeInteger(kurus) || kurus < 0) throw new RangeError("amount must be a non-negative safe integer");
  const s = String(kurus).padStart(3, "0");
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}
