import { isApiError } from "../src/errors";
import { LIST_SIZE_DEFAULT, LIST_SIZE_MAX, LIST_SIZE_MIN } from "../src/limits";
import { CliError } from "./cli-error";

// Strict parsing of flag values: a value the command cannot use is a usage error (exit 2), and
// nothing is opened or written before every flag has been read.

/** The word that removes an optional setting (`--installment-cap none`). */
export const NONE = "none";

const INTEGER = /^-?[0-9]{1,16}$/;
const DECIMAL = /^[0-9]{1,16}(\.[0-9]{1,6})?$/;

export function parseInteger(raw: unknown, flag: string): number {
  const text = String(raw);
  const n = INTEGER.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new CliError(`--${flag}: must be an integer, got "${text}"`, 2);
  return n;
}

export function parseDecimal(raw: unknown, flag: string): number {
  const text = String(raw);
  if (!DECIMAL.test(text)) throw new CliError(`--${flag}: must be a number, got "${text}"`, 2);
  return Number(text);
}

/** `none` clears an optional setting; anything else is parsed by `parse`. */
export const orNone = <T>(raw: unknown, parse: (raw: unknown) => T): T | null => (raw === NONE ? null : parse(raw));

/** A comma-separated list without empty entries; `none` is left to the caller. */
export function parseList(raw: unknown, flag: string): string[] {
  const items = String(raw)
    .split(",")
    .map((s) => s.trim());
  if (items.some((s) => s === "")) throw new CliError(`--${flag}: a comma-separated list without empty entries (or ${NONE})`, 2);
  return items;
}

/** `--limit` of every listing, like `kasa webhooks list`: default 20, at most 200. */
export function parseLimit(raw: unknown): number {
  if (raw === undefined) return LIST_SIZE_DEFAULT;
  const n = parseInteger(raw, "limit");
  if (n < LIST_SIZE_MIN || n > LIST_SIZE_MAX)
    throw new CliError(`--limit: must be an integer from ${LIST_SIZE_MIN} to ${LIST_SIZE_MAX}`, 2);
  return n;
}

/** An optional string flag; citty leaves absent flags undefined. */
export const optional = (raw: unknown): string | null => (typeof raw === "string" && raw !== "" ? raw : null);

/**
 * Rewrites a schema message ("amountLimits.min: Invalid value") to name the flag that set the
 * field ("--amount-min: Invalid value"), so the operator knows what to change.
 */
export function toFlagMessage(message: string, flagOf: Record<string, string>): string {
  const m = /^([A-Za-z.]+)((?:\[\d+\])*): (.*)$/.exec(message);
  if (!m) return message;
  const flag = flagOf[m[1]!];
  return flag === undefined ? message : `--${flag}${m[2]}: ${m[3]}`;
}

/**
 * A service's `validation_error` names the field by its seed-file path; the operator is told the
 * flag that set it instead, as a usage error (exit 2). Other refusals pass through.
 */
export async function withFlagNames<T>(flagOf: Record<string, string>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isApiError(error) && error.code === "validation_error") throw new CliError(toFlagMessage(error.message, flagOf), 2);
    throw error;
  }
}
