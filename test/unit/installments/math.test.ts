import { describe, expect, it } from "vitest";
import {
  AmountOverflowError,
  commissionOn,
  defaultShareBps,
  manualPassThrough,
  quoteAmounts,
  type QuoteInput,
} from "../../../src/domain/installments/math";
import golden from "../../../src/domain/installments/golden-vectors.json";
import { grossShareCovers, referenceQuote, referenceRoundHalfUp } from "./reference";

// What these tests prove about the gross formula T = ceil((B·10⁸ + s·f·10⁴) / (10⁸ − s·r)).
// Write E(T) = (T·r + f·10⁴)/10⁴ for the exact commission on T, C = round(E(T)), S = T − B.
// (1) Coverage: S·10⁸ >= s·(T·r + f·10⁴), i.e. S >= s·E(T)/10⁴: the ceiling only ever adds.
// (2) Minimality: T − 1 fails (1) unless T = B: no buyer pays a kuruş more than (1) needs.
// (3) |S − round(C·s/10⁴)| <= 1: from (1), S >= s·C/10⁴ − s/(2·10⁴) >= s·C/10⁴ − 1/2, so
//     round(C·s/10⁴) <= S + 1; from (2), S < s·E(T)/10⁴ + 1 <= s·(C + 1/2)/10⁴ + 1, so
//     S <= round(C·s/10⁴) + 1. The gross share is within one kuruş of the net-style share.
// (4) s = 10⁴: S >= E(T) and S is an integer, so S >= ceil(E(T)) >= C and T − C >= B: a buyer
//     who carries all the commission leaves the partner at least the base amount.
// (5) s = 0: T = B and S = 0 (interface 4.8). (6) T never falls as s rises (the left side of (1)
//     minus the right is T·(10⁸ − s·r) − B·10⁸ − s·f·10⁴, falling in s for fixed T).
// The checks run on the golden rows and on a deterministic sweep of 3000 random inputs.

type GoldenRow = QuoteInput & { commissionAmount: number; customerShareAmount: number; totalAmount: number };
const rows = golden as GoldenRow[];
const MAX = Number.MAX_SAFE_INTEGER;

/** mulberry32: a seeded generator, so the sweep is the same on every run and runtime. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sweep(count: number): QuoteInput[] {
  const next = seeded(20240601);
  const pick = (max: number) => Math.floor(next() * (max + 1));
  const inputs: QuoteInput[] = [];
  for (let i = 0; i < count; i += 1) {
    // Amounts spread over every magnitude from 1 kuruş to 10^14, where results still fit.
    const baseAmount = Math.max(1, Math.floor(10 ** (next() * 14)));
    const shareBps = [0, 1, 5000, 10000, pick(10000)][i % 5] as number;
    const fixedFee = i % 3 === 0 ? null : pick(i % 3 === 1 ? 500 : 100000);
    inputs.push({ basis: i % 2 === 0 ? "gross" : "net", baseAmount, rateBps: pick(9999), fixedFee, shareBps });
  }
  return inputs;
}

const grossCases = [...rows.filter((row) => row.basis === "gross"), ...sweep(3000).filter((i) => i.basis === "gross")];
const allCases: QuoteInput[] = [...rows, ...sweep(3000)];

describe("product 8 installment math: golden vectors", () => {
  it("holds at least 40 rows covering both bases, 1 kuruş, shares 0/1/5000/10000, fees, 2^53", () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
    for (const basis of ["gross", "net"]) expect(rows.some((row) => row.basis === basis)).toBe(true);
    for (const share of [0, 1, 5000, 10000]) expect(rows.some((row) => row.shareBps === share)).toBe(true);
    expect(rows.some((row) => row.baseAmount === 1)).toBe(true);
    expect(rows.some((row) => (row.fixedFee ?? 0) > 0)).toBe(true);
    expect(rows.some((row) => row.totalAmount === MAX)).toBe(true);
  });

  it.each(rows)("$basis B=$baseAmount r=$rateBps f=$fixedFee s=$shareBps matches the reference", (row) => {
    const expected = referenceQuote(row);
    expect(BigInt(row.totalAmount)).toBe(expected.totalAmount);
    expect(BigInt(row.commissionAmount)).toBe(expected.commissionAmount);
    expect(BigInt(row.customerShareAmount)).toBe(expected.customerShareAmount);
  });

  it.each(rows)("$basis B=$baseAmount r=$rateBps f=$fixedFee s=$shareBps: quoteAmounts gives the row", (row) => {
    const { commissionAmount, customerShareAmount, totalAmount } = row;
    expect(quoteAmounts(row)).toEqual({ commissionAmount, customerShareAmount, totalAmount });
  });
});

describe("product 8 installment math: hand-computed rows", () => {
  // Each row worked on paper; the comment is the working.
  it.each([
    // net: C = round(10000·250/10⁴) + 100 = 350; S = round(350·5000/10⁴) = 175; T = 10175.
    { basis: "net", baseAmount: 10000, rateBps: 250, fixedFee: 100, shareBps: 5000, c: 350, s: 175, t: 10175 },
    // net half up twice: C = round(5000·1/10⁴ = 0.5) = 1; S = round(1·5000/10⁴ = 0.5) = 1.
    { basis: "net", baseAmount: 5000, rateBps: 1, fixedFee: null, shareBps: 5000, c: 1, s: 1, t: 5001 },
    // gross: T = ceil(10⁴·10⁸ / (10⁸ − 10⁴·250)) = ceil(10256.41) = 10257; C = round(256.425) = 256.
    { basis: "gross", baseAmount: 10000, rateBps: 250, fixedFee: null, shareBps: 10000, c: 256, s: 257, t: 10257 },
    // gross, share 0: T = B; C = round(12345·199/10⁴ = 245.6655) = 246.
    { basis: "gross", baseAmount: 12345, rateBps: 199, fixedFee: null, shareBps: 0, c: 246, s: 0, t: 12345 },
    // gross, 1 kuruş at the top rate: T = ceil(10⁸ / (10⁸ − 99 990 000)) = 10000; C = round(9999) = 9999.
    { basis: "gross", baseAmount: 1, rateBps: 9999, fixedFee: null, shareBps: 10000, c: 9999, s: 9999, t: 10000 },
    // gross with fee: T = ceil((10¹³ + 10⁴·100·10⁴) / 95 500 000) = ceil(104816.75) = 104817;
    // C = round(104817·450/10⁴ = 4716.765) + 100 = 4817.
    { basis: "gross", baseAmount: 100000, rateBps: 450, fixedFee: 100, shareBps: 10000, c: 4817, s: 4817, t: 104817 },
  ] as const)("$basis B=$baseAmount r=$rateBps f=$fixedFee s=$shareBps -> C=$c S=$s T=$t", (row) => {
    expect(quoteAmounts(row)).toEqual({ commissionAmount: row.c, customerShareAmount: row.s, totalAmount: row.t });
  });
});

describe("product 8 installment math: gross formula properties (proof in the file header)", () => {
  const facts = grossCases.map((input) => {
    const quote = quoteAmounts(input);
    return { input, quote, b: BigInt(input.baseAmount), t: BigInt(quote.totalAmount), r: BigInt(input.rateBps) };
  });
  const f = (input: QuoteInput) => BigInt(input.fixedFee ?? 0);
  const s = (input: QuoteInput) => BigInt(input.shareBps);

  it.each([
    [
      "(1) the share covers s/10^4 of the exact commission on T",
      () => facts.every(({ input, b, t, r }) => grossShareCovers(t, b, r, f(input), s(input))),
    ],
    [
      "(2) T is minimal: T - 1 does not cover it",
      () => facts.every(({ input, b, t, r }) => t === b || !grossShareCovers(t - 1n, b, r, f(input), s(input))),
    ],
    [
      "(3) |S - round(C*s/10^4)| <= 1",
      () =>
        facts.every(({ input, quote }) => {
          const netStyle = referenceRoundHalfUp(BigInt(quote.commissionAmount) * s(input), 10_000n);
          const diff = BigInt(quote.customerShareAmount) - netStyle;
          return diff >= -1n && diff <= 1n;
        }),
    ],
    [
      "(4) s = 10000 leaves the partner at least B: T - C >= B",
      () =>
        facts
          .filter(({ input }) => input.shareBps === 10000)
          .every(({ quote, b }) => BigInt(quote.totalAmount - quote.commissionAmount) >= b),
    ],
    [
      "(5) s = 0 charges exactly B",
      () =>
        facts
          .filter(({ input }) => input.shareBps === 0)
          .every(({ quote, b }) => quote.customerShareAmount === 0 && BigInt(quote.totalAmount) === b),
    ],
    [
      "(6) T does not fall when s rises",
      () =>
        // Rows near 2^53 are left out: raising s there overflows, which the overflow table covers.
        facts.every(
          ({ input, quote }) =>
            input.shareBps === 10000 ||
            input.baseAmount > 1e14 ||
            quoteAmounts({ ...input, shareBps: input.shareBps + 1 }).totalAmount >= quote.totalAmount,
        ),
    ],
  ] as const)("%s", (_rule, holds) => {
    expect(facts.length).toBeGreaterThan(1000);
    expect(holds()).toBe(true);
  });
});

describe("product 8 installment math: both bases against the reference (3000-case sweep)", () => {
  it.each([
    [
      "quoteAmounts equals the reference",
      (input: QuoteInput) => {
        const expected = referenceQuote(input);
        const quote = quoteAmounts(input);
        return (
          BigInt(quote.totalAmount) === expected.totalAmount &&
          BigInt(quote.commissionAmount) === expected.commissionAmount &&
          BigInt(quote.customerShareAmount) === expected.customerShareAmount
        );
      },
    ],
    [
      "S = T - B (interface 2.5 customerShareAmount)",
      (input: QuoteInput) => {
        const quote = quoteAmounts(input);
        return quote.customerShareAmount === quote.totalAmount - input.baseAmount;
      },
    ],
    [
      "commissionOn at capture equals the quoted commission (gross on T, net on B; product 5)",
      (input: QuoteInput) => {
        const quote = quoteAmounts(input);
        const on = input.basis === "gross" ? quote.totalAmount : input.baseAmount;
        return commissionOn(on, input.rateBps, input.fixedFee) === quote.commissionAmount;
      },
    ],
  ] as const)("%s", (_rule, holds) => {
    const failing = allCases.filter((input) => !holds(input));
    expect(failing).toEqual([]);
  });
});

describe("product 2 / product 8 amounts above Number.MAX_SAFE_INTEGER", () => {
  // The inputs are each valid; only the result is too large. AmountOverflowError (a RangeError)
  // names the field, and the HTTP layer maps it to 400 validation_error (product 2).
  it.each([
    {
      name: "gross, full share on MAX",
      basis: "gross",
      baseAmount: MAX,
      rateBps: 100,
      fixedFee: null,
      shareBps: 10000,
      field: "totalAmount",
    },
    {
      name: "gross, fee pushes T past MAX",
      basis: "gross",
      baseAmount: MAX,
      rateBps: 0,
      fixedFee: 1,
      shareBps: 10000,
      field: "totalAmount",
    },
    {
      name: "gross, 2^52 at 50% and full share",
      basis: "gross",
      baseAmount: 2 ** 52,
      rateBps: 5000,
      fixedFee: null,
      shareBps: 10000,
      field: "totalAmount",
    },
    {
      name: "gross, share 0 but fee makes C too large",
      basis: "gross",
      baseAmount: MAX,
      rateBps: 1,
      fixedFee: MAX,
      shareBps: 0,
      field: "commissionAmount",
    },
    { name: "net, 1 bps share on MAX", basis: "net", baseAmount: MAX, rateBps: 1, fixedFee: null, shareBps: 1, field: "totalAmount" },
    { name: "net, fee pushes T past MAX", basis: "net", baseAmount: MAX, rateBps: 0, fixedFee: 1, shareBps: 10000, field: "totalAmount" },
    {
      name: "net, share 0 but fee makes C too large",
      basis: "net",
      baseAmount: MAX,
      rateBps: 9999,
      fixedFee: MAX,
      shareBps: 0,
      field: "commissionAmount",
    },
  ] as const)("$name -> AmountOverflowError($field)", (row) => {
    expect(() => quoteAmounts(row)).toThrow(AmountOverflowError);
    expect(() => quoteAmounts(row)).toThrow(expect.objectContaining({ field: row.field, name: "AmountOverflowError" }));
    expect(() => quoteAmounts(row)).toThrow(RangeError);
  });

  it("one kuruş below the edge still fits (T = MAX exactly)", () => {
    const quote = quoteAmounts({ basis: "gross", baseAmount: MAX - 1, rateBps: 0, fixedFee: 1, shareBps: 10000 });
    expect(quote.totalAmount).toBe(MAX);
  });
});

describe("product 8 installment math: inputs outside their ranges are caller bugs", () => {
  // Schemas reject these first (interface 8, product 8 row rules); reaching the math is a bug, so a
  // plain RangeError, never the AmountOverflowError a caller would turn into a 400.
  const valid: QuoteInput = { basis: "gross", baseAmount: 100, rateBps: 100, fixedFee: null, shareBps: 0 };
  it.each([
    ["baseAmount 0", { baseAmount: 0 }],
    ["baseAmount fractional", { baseAmount: 1.5 }],
    ["baseAmount above MAX", { baseAmount: MAX + 1 }],
    ["rateBps 10000", { rateBps: 10000 }],
    ["rateBps negative", { rateBps: -1 }],
    ["fixedFee negative", { fixedFee: -1 }],
    ["shareBps 10001", { shareBps: 10001 }],
    ["shareBps NaN", { shareBps: Number.NaN }],
  ] as const)("%s", (_name, patch) => {
    const run = () => quoteAmounts({ ...valid, ...patch });
    expect(run).toThrow(RangeError);
    expect(run).not.toThrow(AmountOverflowError);
  });
});

describe("interface 4.8 share defaults by commission basis", () => {
  it.each([
    ["gross", 0],
    ["net", 10000],
  ] as const)("%s -> %i", (basis, share) => {
    expect(defaultShareBps(basis)).toBe(share);
  });
});

describe("product 5 commission at capture: round(amount*r/1e4) + f", () => {
  it.each([
    [10000, 250, null, 250],
    [10257, 250, null, 256], // 256.425 rounds down
    [2, 2500, null, 1], // 0.5 rounds up
    [1, 199, 100, 100],
    [0, 9999, 7, 7],
    [MAX, 9999, null, 9006298534815517],
  ] as const)("amount %i, r %i, f %s -> %i", (amount, rate, fee, expected) => {
    expect(commissionOn(amount, rate, fee)).toBe(expected);
  });
});

describe("interface 4.8 manual pass-through on a gross terminal: surcharge = floor(cash*r/1e4)", () => {
  it.each([
    [10000, 250, 250, 10250],
    [12345, 199, 245, 12590], // 245.6655 truncates, never rounds
    [1, 9999, 0, 1],
    [3, 5000, 1, 4], // 1.5 truncates
    [100, 0, 0, 100],
  ] as const)("cash %i at %i bps -> surcharge %i, send %i", (cash, rate, surcharge, total) => {
    expect(manualPassThrough(cash, rate, "gross")).toEqual({ surchargeAmount: surcharge, totalAmount: total });
  });

  it("does not apply on a net terminal", () => {
    expect(manualPassThrough(10000, 250, "net")).toBeNull();
  });

  it("reports a total past MAX as overflow", () => {
    expect(() => manualPassThrough(MAX, 1, "gross")).toThrow(AmountOverflowError);
  });
});
