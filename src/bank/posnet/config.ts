import * as v from "valibot";
import { invariant } from "../../invariant";

// The seed file's `posnet` object of a connection with `"bank": "posnet"` (docs/banks-posnet.md,
// "Seed file"). Six fields are required; URLs are absolute https, or http on a loopback host (the
// sandbox's own simulator). `encKey` is the secret: every message here names the field and the
// rule, never the value. The model is always 3D, so there is no `model` field.

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

const digits = (max: number) =>
  v.pipe(
    v.string("must be a string"),
    v.check((s) => new RegExp(`^[0-9]{1,${max}}$`).test(s), `must be 1 to ${max} digits`),
  );

export const posnetConfigSchema = v.strictObject({
  apiUrl: bankUrl,
  gateUrl: bankUrl,
  merchantId: digits(20),
  terminalId: digits(20),
  posnetId: digits(20),
  // Printable ASCII without `;` or spaces: the key is hashed as `encKey;terminalId`.
  encKey: v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(200, "must be at most 200 characters"),
    v.check((s) => /^[\x21-\x3a\x3c-\x7e]+$/.test(s), "must be printable ASCII without spaces or ';'"),
  ),
  lang: v.nullish(v.picklist(["tr", "en"], 'must be "tr" or "en"')),
  timeoutMs: v.nullish(
    v.pipe(
      v.number("must be a number"),
      v.integer("must be an integer"),
      v.minValue(100, "must be at least 100"),
      v.maxValue(120_000, "must be at most 120000"),
    ),
  ),
});

export type PosnetConfigInput = v.InferOutput<typeof posnetConfigSchema>;

export type PosnetConfig = Required<{ [K in keyof PosnetConfigInput]: NonNullable<PosnetConfigInput[K]> }>;

export const DEFAULT_POSNET_TIMEOUT_MS = 30_000;

export const toPosnetConfig = (input: PosnetConfigInput): PosnetConfig => ({
  ...input,
  lang: input.lang ?? "tr",
  timeoutMs: input.timeoutMs ?? DEFAULT_POSNET_TIMEOUT_MS,
});

/** A connection's stored settings; the seed checked them, so a failure here is a corrupt row. */
export function parsePosnetConfig(connectionId: string, json: string | null): PosnetConfig {
  invariant(json !== null, `connection ${connectionId}: bank "posnet" without its posnet settings`);
  const parsed = v.safeParse(posnetConfigSchema, JSON.parse(json));
  invariant(parsed.success, `connection ${connectionId}: stored posnet settings are invalid`);
  return toPosnetConfig(parsed.output);
}

/** What CLI output and logs may show of a connection's settings. */
export const redactPosnetConfig = (c: PosnetConfig): Record<string, unknown> => ({ ...c, encKey: "[redacted]" });
