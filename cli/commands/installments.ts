import { defineCommand } from "citty";
import goldenVectors from "../../src/domain/installments/golden-vectors.json";
import {
  AmountOverflowError,
  defaultShareBps,
  MAX_RATE_BPS,
  MAX_SHARE_BPS,
  quoteAmounts,
  type QuoteInput,
} from "../../src/domain/installments/math";
import type { CommissionBasis } from "../../src/domain/installments/types";
import { CliError } from "../cli-error";
import { commonArgs, output, table } from "../context";

// `kasa installments quote` (issue 6): without flags it prints the golden vectors of docs/contract.md, The math,
// the same file the unit tests check, so partners can test their own rounding against it; with
// flags it computes one quote. Pure math: no database is opened.

const QUOTE_FLAGS = ["basis", "base", "rate", "fee", "share"] as const;

/** A golden vector: the inputs of one quote and the amounts docs/contract.md#the-math gives for them. */
type QuoteRow = QuoteInput & { commissionAmount: number; customerShareAmount: number; totalAmount: number };

const COLUMNS = ["basis", "baseAmount", "rateBps", "fixedFee", "shareBps", "commissionAmount", "customerShareAmount", "totalAmount"];

/** A non-negative decimal integer within [min, max]; anything else is a usage error. */
function parseCount(value: unknown, flag: string, min: number, max: number): number {
  const text = String(value);
  const parsed = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new CliError(`--${flag}: must be an integer between ${min} and ${max}`, 2);
  }
  return parsed;
}

function toQuoteInput(args: Record<string, unknown>): QuoteInput {
  const basis = (args.basis ?? "gross") as string;
  if (basis !== "gross" && basis !== "net") throw new CliError("--basis: must be gross or net", 2);
  if (args.base === undefined) throw new CliError("missing --base", 2);
  if (args.rate === undefined) throw new CliError("missing --rate", 2);
  return {
    basis: basis as CommissionBasis,
    baseAmount: parseCount(args.base, "base", 1, Number.MAX_SAFE_INTEGER),
    rateBps: parseCount(args.rate, "rate", 0, MAX_RATE_BPS),
    fixedFee: args.fee === undefined ? null : parseCount(args.fee, "fee", 0, Number.MAX_SAFE_INTEGER),
    shareBps: args.share === undefined ? defaultShareBps(basis) : parseCount(args.share, "share", 0, MAX_SHARE_BPS),
  };
}

function quoteOne(input: QuoteInput): QuoteRow {
  try {
    return { ...input, ...quoteAmounts(input) };
  } catch (error) {
    if (error instanceof AmountOverflowError) throw new CliError(`--base: the ${error.field} would exceed ${Number.MAX_SAFE_INTEGER}`);
    throw error;
  }
}

export const installmentsQuoteCommand = defineCommand({
  meta: {
    name: "quote",
    description:
      "Print the installment math's golden vectors, or compute one quote from the flags.\n\nExample: kasa installments quote --basis gross --base 100000 --rate 450 --fee 100 --share 10000 --json",
  },
  args: {
    basis: { type: "string", description: "commission basis: gross (default) or net", valueHint: "gross|net" },
    base: { type: "string", description: "baseAmount in kuruş (>= 1)", valueHint: "KURUS" },
    rate: { type: "string", description: "rateBps (0-9999)", valueHint: "BPS" },
    fee: { type: "string", description: "fixedFee in kuruş (default none)", valueHint: "KURUS" },
    share: { type: "string", description: "customer share bps (0-10000; default 0 gross, 10000 net)", valueHint: "BPS" },
    json: commonArgs.json,
  },
  run({ args }) {
    if (!QUOTE_FLAGS.some((flag) => args[flag] !== undefined)) {
      const rows = goldenVectors as QuoteRow[];
      output(args, rows, () => table(rows, COLUMNS));
      return;
    }
    const row = quoteOne(toQuoteInput(args));
    output(args, row, () => table([row], COLUMNS));
  },
});

export const installmentsCommand = defineCommand({
  meta: { name: "installments", description: "Installment commission math.\n\nExample: kasa installments quote --json" },
  subCommands: { quote: installmentsQuoteCommand },
});
