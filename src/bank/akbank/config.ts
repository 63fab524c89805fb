import * as v from "valibot";
import { invariant } from "../../invariant";

// The seed file's `akbank` object of a connection with `"bank": "akbank"` (docs/banks-akbank.md,
// "Seed file"). URLs are absolute https, or http on a loopback host (the sandbox's own simulator).
// `secretKey` is the one secret: every message here names the field and the rule, never the value.

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);
const isLoopbackHost = (host: string): boolean => LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);

function isBankUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  if (url.username || url.password || url.hash) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

const bankUrl = v.pipe(
  v.string("must be a string"),
  v.maxLength(2000, "must be at most 2000 characters"),
  v.check(isBankUrl, "must be an absolute https URL (http only on a loopback host)"),
);
// Printable ASCII without spaces: these values are signed and sent verbatim.
const token = (max: number) =>
  v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check((s) => /^[\x21-\x7e]+$/.test(s), "must be printable ASCII without spaces"),
  );

export const akbankConfigSchema = v.strictObject({
  model: v.picklist(["3d", "3d_pay"], 'must be "3d" or "3d_pay"'),
  gateUrl: bankUrl,
  apiUrl: bankUrl,
  merchantSafeId: token(64),
  terminalSafeId: token(64),
  secretKey: token(512),
  subMerchantId: v.nullish(token(64)),
  lang: v.nullish(v.picklist(["TR", "EN"], 'must be "TR" or "EN"')),
  timeoutMs: v.nullish(
    v.pipe(
      v.number("must be a number"),
      v.integer("must be an integer"),
      v.minValue(100, "must be at least 100"),
      v.maxValue(120_000, "must be at most 120000"),
    ),
  ),
});

export type AkbankConfigInput = v.InferOutput<typeof akbankConfigSchema>;

export interface AkbankConfig {
  model: "3d" | "3d_pay";
  gateUrl: string;
  apiUrl: string;
  merchantSafeId: string;
  terminalSafeId: string;
  secretKey: string;
  subMerchantId: string | null;
  lang: "TR" | "EN";
  timeoutMs: number;
}

export const DEFAULT_AKBANK_TIMEOUT_MS = 30_000;

export const toAkbankConfig = (input: AkbankConfigInput): AkbankConfig => ({
  ...input,
  subMerchantId: input.subMerchantId ?? null,
  lang: input.lang ?? "TR",
  timeoutMs: input.timeoutMs ?? DEFAULT_AKBANK_TIMEOUT_MS,
});

/** A connection's stored settings; the seed checked them, so a failure here is a corrupt row. */
export function parseAkbankConfig(connectionId: string, json: string | null): AkbankConfig {
  invariant(json !== null, `connection ${connectionId}: bank "akbank" without its akbank settings`);
  const parsed = v.safeParse(akbankConfigSchema, JSON.parse(json));
  invariant(parsed.success, `connection ${connectionId}: stored akbank settings are invalid`);
  return toAkbankConfig(parsed.output);
}

/** What CLI output and logs may show of a connection's settings. */
export const redactAkbankConfig = (c: AkbankConfig): Record<string, unknown> => ({ ...c, secretKey: "[redacted]" });

/** `{apiUrl}/transaction/process`: every payment, void, refund and order-history call. */
export const processUrl = (c: AkbankConfig): string => `${c.apiUrl.replace(/\/+$/, "")}/transaction/process`;

/** `{apiUrl}/portal/report/transaction`: the daily transaction list. */
export const reportUrl = (c: AkbankConfig): string => `${c.apiUrl.replace(/\/+$/, "")}/portal/report/transaction`;
