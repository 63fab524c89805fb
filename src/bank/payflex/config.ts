import * as v from "valibot";
import { invariant } from "../../invariant";

// The seed file's `payflex` object of a connection with `"bank": "payflex"` (docs/banks-payflex.md,
// "Seed object"). Three URLs (MPI, VPOS, Search), the merchant's ids and its one password, which
// the MPI, the VPOS and the Search service all take. `password` is a secret: every message here
// names the field and the rule, never the value.

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

// Printable ASCII without spaces: these values go into form fields and XML as they are.
const token = (max: number) =>
  v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check((s) => /^[\x21-\x7e]+$/.test(s), "must be printable ASCII without spaces"),
  );

export const payflexConfigSchema = v.pipe(
  v.strictObject({
    mpiUrl: bankUrl,
    vposUrl: bankUrl,
    searchUrl: bankUrl,
    merchantId: token(64),
    password: token(200),
    terminalNo: token(64),
    merchantType: v.nullish(v.picklist([0, 1, 2], "must be 0, 1 or 2")),
    subMerchantId: v.nullish(token(64)),
    timeoutMs: v.nullish(
      v.pipe(
        v.number("must be a number"),
        v.integer("must be an integer"),
        v.minValue(100, "must be at least 100"),
        v.maxValue(120_000, "must be at most 120000"),
      ),
    ),
  }),
  v.forward(
    v.check((c) => c.merchantType !== 2 || (c.subMerchantId ?? null) !== null, "is required when merchantType is 2"),
    ["subMerchantId"],
  ),
);

export type PayflexConfigInput = v.InferOutput<typeof payflexConfigSchema>;

export interface PayflexConfig {
  mpiUrl: string;
  vposUrl: string;
  searchUrl: string;
  merchantId: string;
  password: string;
  terminalNo: string;
  merchantType: 0 | 1 | 2;
  subMerchantId: string | null;
  timeoutMs: number;
}

export const DEFAULT_PAYFLEX_TIMEOUT_MS = 30_000;

export const toPayflexConfig = (input: PayflexConfigInput): PayflexConfig => ({
  ...input,
  merchantType: input.merchantType ?? 0,
  subMerchantId: input.subMerchantId ?? null,
  timeoutMs: input.timeoutMs ?? DEFAULT_PAYFLEX_TIMEOUT_MS,
});

/** A connection's stored settings; the seed checked them, so a failure here is a corrupt row. */
export function parsePayflexConfig(connectionId: string, json: string | null): PayflexConfig {
  invariant(json !== null, `connection ${connectionId}: bank "payflex" without its payflex settings`);
  const parsed = v.safeParse(payflexConfigSchema, JSON.parse(json));
  invariant(parsed.success, `connection ${connectionId}: stored payflex settings are invalid`);
  return toPayflexConfig(parsed.output);
}

/** What CLI output and logs may show of a connection's settings. */
export const redactPayflexConfig = (c: PayflexConfig): Record<string, unknown> => ({ ...c, password: "[redacted]" });
