import * as v from "valibot";
import { invariant } from "../../invariant";

// The seed file's `est` object of a connection with `"bank": "est"` (docs/banks.md). The first seven
// fields are required; URLs are absolute https, or http on a loopback host (the sandbox's own
// simulator). `apiPassword` and `storeKey` are secrets: every message here names the field and
// the rule, never the value.

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
// Printable ASCII without spaces: these values are signed and posted verbatim (est.md 2.5).
const token = (max: number) =>
  v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check((s) => /^[\x21-\x7e]+$/.test(s), "must be printable ASCII without spaces"),
  );

export const estConfigSchema = v.strictObject({
  model: v.picklist(["3d", "3d_pay"], 'must be "3d" or "3d_pay"'),
  gateUrl: bankUrl,
  apiUrl: bankUrl,
  clientId: token(64),
  apiUser: token(64),
  apiPassword: token(200),
  storeKey: token(200),
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

export type EstConfigInput = v.InferOutput<typeof estConfigSchema>;

export type EstConfig = Required<{ [K in keyof EstConfigInput]: NonNullable<EstConfigInput[K]> }>;

export const DEFAULT_EST_TIMEOUT_MS = 30_000;

export const toEstConfig = (input: EstConfigInput): EstConfig => ({
  ...input,
  lang: input.lang ?? "tr",
  timeoutMs: input.timeoutMs ?? DEFAULT_EST_TIMEOUT_MS,
});

/** A connection's stored settings; the seed checked them, so a failure here is a corrupt row. */
export function parseEstConfig(connectionId: string, json: string | null): EstConfig {
  invariant(json !== null, `connection ${connectionId}: bank "est" without its est settings`);
  const parsed = v.safeParse(estConfigSchema, JSON.parse(json));
  invariant(parsed.success, `connection ${connectionId}: stored est settings are invalid`);
  return toEstConfig(parsed.output);
}

/** What CLI output and logs may show of a connection's settings. */
export const redactEstConfig = (c: EstConfig): Record<string, unknown> => ({ ...c, apiPassword: "[redacted]", storeKey: "[redacted]" });
