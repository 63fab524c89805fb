import * as v from "valibot";
import { invariant } from "../../invariant";

// The seed file's `garanti` object of a connection with `"bank": "garanti"` (docs/banks-garanti.md,
// "Seed object"). The first ten fields are required; URLs are absolute https, or http on a
// loopback host (the sandbox's own simulator). `provPassword`, `refundPassword` and `storeKey` are
// secrets: every message here names the field and the rule, never the value.

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);
const isLoopbackHost = (host: string): boolean => LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);

function isBankUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

const bankUrl = v.pipe(
  v.string("must be a string"),
  v.maxLength(2000, "must be at most 2000 characters"),
  v.check(isBankUrl, "must be an absolute https URL (http only on a loopback host)"),
);

// Printable ASCII without spaces: these values are hashed and posted verbatim.
const token = (max: number) =>
  v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check((s) => /^[\x21-\x7e]+$/.test(s), "must be printable ASCII without spaces"),
  );

const digits = (max: number) =>
  v.pipe(
    v.string("must be a string"),
    v.check((s) => new RegExp(`^\\d{1,${max}}$`).test(s), `must be 1 to ${max} digits`),
  );

export const garantiConfigSchema = v.strictObject({
  model: v.picklist(["3d", "3d_pay"], 'must be "3d" or "3d_pay"'),
  gateUrl: bankUrl,
  apiUrl: bankUrl,
  merchantId: digits(20),
  terminalId: digits(9),
  provUserId: token(64),
  provPassword: token(200),
  refundUserId: token(64),
  refundPassword: token(200),
  storeKey: token(200),
  mode: v.nullish(v.picklist(["PROD", "TEST"], 'must be "PROD" or "TEST"')),
  timeoutMs: v.nullish(
    v.pipe(
      v.number("must be a number"),
      v.integer("must be an integer"),
      v.minValue(100, "must be at least 100"),
      v.maxValue(120_000, "must be at most 120000"),
    ),
  ),
});

export type GarantiConfigInput = v.InferOutput<typeof garantiConfigSchema>;

export type GarantiConfig = Required<{ [K in keyof GarantiConfigInput]: NonNullable<GarantiConfigInput[K]> }>;

export const DEFAULT_GARANTI_TIMEOUT_MS = 30_000;

export const toGarantiConfig = (input: GarantiConfigInput): GarantiConfig => ({
  ...input,
  mode: input.mode ?? "PROD",
  timeoutMs: input.timeoutMs ?? DEFAULT_GARANTI_TIMEOUT_MS,
});

/** A connection's stored settings; the seed checked them, so a failure here is a corrupt row. */
export function parseGarantiConfig(connectionId: string, json: string | null): GarantiConfig {
  invariant(json !== null, `connection ${connectionId}: bank "garanti" without its garanti settings`);
  const parsed = v.safeParse(garantiConfigSchema, JSON.parse(json));
  invariant(parsed.success, `connection ${connectionId}: stored garanti settings are invalid`);
  return toGarantiConfig(parsed.output);
}

/** What CLI output and logs may show of a connection's settings. */
export const redactGarantiConfig = (c: GarantiConfig): Record<string, unknown> => ({
  ...c,
  provPassword: "[redacted]",
  refundPassword: "[redacted]",
  storeKey: "[redacted]",
});
