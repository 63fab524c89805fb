// An independent reference for product.md 8, used only by the tests. It shares no code with
// src/domain/installments/math.ts and takes a different route to each number:
// - rounding by quotient and remainder (src uses one shifted division);
// - the gross total by binary search for the smallest T >= B whose share T − B covers s/10⁴ of
//   the unrounded commission on T, i.e. (T − B)·10⁸ >= s·(T·r + f·10⁴). That inequality is what
//   the gross formula is meant to solve, so agreement checks the closed form's ceil and algebra,
//   not just its transcription.

export type ReferenceInput = {
  basis: "gross" | "net";
  baseAmount: number;
  rateBps: number;
  fixedFee: number | null;
  shareBps: number;
};

export type ReferenceResult = {
  commissionAmount: bigint;
  customerShareAmount: bigint;
  totalAmount: bigint;
};

/** round(n/d), halves up, for n >= 0 and d > 0, by remainder comparison. */
export function referenceRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  return 2n * remainder >= denominator ? quotient + 1n : quotient;
}

/** The gross condition: the buyer's share covers their fraction of the exact commission on T. */
export function grossShareCovers(total: bigint, base: bigint, r: bigint, f: bigint, s: bigint): boolean {
  return (total - base) * 100_000_000n >= s * (total * r + f * 10_000n);
}

export function referenceQuote(input: ReferenceInput): ReferenceResult {
  const b = BigInt(input.baseAmount);
  const r = BigInt(input.rateBps);
  const f = BigInt(input.fixedFee ?? 0);
  const s = BigInt(input.shareBps);
  if (input.basis === "net") {
    const commission = referenceRoundHalfUp(b * r, 10_000n) + f;
    const share = referenceRoundHalfUp(commission * s, 10_000n);
    return { commissionAmount: commission, customerShareAmount: share, totalAmount: b + share };
  }
  // r <= 9999 and s <= 10000 make the condition monotone in T and true at this upper bound:
  // at T = hi, (T − B)·10⁸ − s·(T·r + f·10⁴) = T·(10⁸ − s·r) − B·10⁸ − s·f·10⁴ with 10⁸ − s·r >= 10⁴.
  let lo = b;
  let hi = b * 10_000n + f * 10_000n + 1n;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (grossShareCovers(mid, b, r, f, s)) hi = mid;
    else lo = mid + 1n;
  }
  const commission = referenceRoundHalfUp(lo * r, 10_000n) + f;
  return { commissionAmount: commission, customerShareAmount: lo - b, totalAmount: lo };
}
