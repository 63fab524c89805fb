import type { CommissionBasis } from "./types";

// Integer commission math of docs/contract.md, The math. Every product runs in BigInt: B·10⁸ alone passes 2^53
// at B ≈ 90 million kuruş, so Number arithmetic would silently lose kuruş long before amounts look
// large. Only the results are converted back, and only when they are safe integers.

const BPS = 10_000n;
const BPS_SQUARED = 100_000_000n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export const MAX_RATE_BPS = 9_999;
export const MAX_SHARE_BPS = 10_000;

/**
 * A result amount would exceed Number.MAX_SAFE_INTEGER (docs/contract.md, Identifiers and formats: such amounts are invalid).
 * The inputs were each valid, so this is the caller's request being too large, not our bug: the
 * HTTP layer maps it to 400 `validation_error` naming `field`. Out-of-range inputs, by contrast,
 * throw a plain RangeError, because schemas must have rejected them before (DESIGN.md style 8).
 */
export class AmountOverflowError extends RangeError {
  override readonly name = "AmountOverflowError";
  readonly field: string;
  constructor(field: string) {
    super(`${field}: exceeds ${Number.MAX_SAFE_INTEGER}`);
    this.field = field;
  }
}

export type QuoteInput = {
  baseAmount: number;
  rateBps: number;
  fixedFee: number | null;
  shareBps: number;
  basis: CommissionBasis;
};

export type QuoteAmounts = {
  commissionAmount: number;
  customerShareAmount: number;
  totalAmount: number;
};

/** docs/contract.md, Options for a card: share defaults to 0 on gross terminals and 10000 on net terminals. */
export function defaultShareBps(basis: CommissionBasis): number {
  return basis === "gross" ? 0 : MAX_SHARE_BPS;
}

/**
 * docs/contract.md#the-math amounts for one option.
 * net:   C = round(B·r/10⁴) + f;  S = round(C·s/10⁴);  T = B + S.
 * gross: T = ceil((B·10⁸ + s·f·10⁴) / (10⁸ − s·r));  C = round(T·r/10⁴) + f;  S = T − B.
 * The gross total is the smallest T whose share T − B covers s/10⁴ of the unrounded commission
 * on T itself (the proof is in test/unit/installments/math.test.ts). r <= 9999 keeps the
 * denominator >= 10⁴, so it is never zero or negative.
 */
export function quoteAmounts(input: QuoteInput): QuoteAmounts {
  const b = toBig(input.baseAmount, "baseAmount", 1);
  const r = toBig(input.rateBps, "rateBps", 0, MAX_RATE_BPS);
  const f = toBig(input.fixedFee ?? 0, "fixedFee", 0);
  const s = toBig(input.shareBps, "shareBps", 0, MAX_SHARE_BPS);
  let commission: bigint;
  let share: bigint;
  let total: bigint;
  if (input.basis === "net") {
    commission = roundHalfUp(b * r, BPS) + f;
    share = roundHalfUp(commission * s, BPS);
    total = b + share;
  } else {
    total = ceilDiv(b * BPS_SQUARED + s * f * BPS, BPS_SQUARED - s * r);
    commission = roundHalfUp(total * r, BPS) + f;
    share = total - b;
  }
  // Total first: it is the amount the buyer is charged, the one a caller most needs named.
  const totalAmount = toSafeNumber(total, "totalAmount");
  return {
    commissionAmount: toSafeNumber(commission, "commissionAmount"),
    customerShareAmount: toSafeNumber(share, "customerShareAmount"),
    totalAmount,
  };
}

/**
 * Commission recorded at capture (docs/contract.md, Payments): round(amount·r/10⁴) + f, where amount is the
 * charged amount on gross terminals and the principal on net ones. It equals the quote's
 * `commissionAmount` for the same inputs, which the tests check.
 */
export function commissionOn(amount: number, rateBps: number, fixedFee: number | null): number {
  const a = toBig(amount, "amount", 0);
  const r = toBig(rateBps, "rateBps", 0, MAX_RATE_BPS);
  const f = toBig(fixedFee ?? 0, "fixedFee", 0);
  return toSafeNumber(roundHalfUp(a * r, BPS) + f, "commissionAmount");
}

/**
 * docs/contract.md#options-for-a-card manual one-to-one pass-through on a gross terminal: surcharge = ⌊cash·r/10⁴⌋ and
 * the partner sends cash + surcharge to POST /v1/payments. Null on a net terminal, where the
 * interface says the recipe does not apply. Truncation (not rounding) is what the interface
 * publishes, so partners who follow it by hand get exactly this number.
 */
export function manualPassThrough(
  cashAmount: number,
  rateBps: number,
  basis: CommissionBasis,
): { surchargeAmount: number; totalAmount: number } | null {
  if (basis === "net") return null;
  const cash = toBig(cashAmount, "cashAmount", 1);
  const surcharge = (cash * toBig(rateBps, "rateBps", 0, MAX_RATE_BPS)) / BPS;
  return {
    surchargeAmount: toSafeNumber(surcharge, "surchargeAmount"),
    totalAmount: toSafeNumber(cash + surcharge, "totalAmount"),
  };
}

/** round(n/d) with halves rounded up; n, d >= 0. */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** ⌈n/d⌉ for n >= 0, d > 0 (BigInt division truncates toward zero). */
function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

function toBig(value: number, field: string, min: number, max = Number.MAX_SAFE_INTEGER): bigint {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${field}: must be an integer in ${min}..${max}, got ${value}`);
  }
  return BigInt(value);
}

function toSafeNumber(value: bigint, field: string): number {
  if (value > MAX_SAFE) throw new AmountOverflowError(field);
  return Number(value);
}
