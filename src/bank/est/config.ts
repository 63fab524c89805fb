import * as v from "valibot";
import { bankUrl, parseStoredSettings, timeoutMs, token } from "../settings-fields";

// The seed file's `est` object of a connection with `"bank": "est"` (docs/banks.md). The first seven
// fields are required; URLs are absolute https, or http on a loopback host (the sandbox's own
// simulator). `apiPassword` and `storeKey` are secrets: every message here names the field and
// the rule, never the value.

export const estConfigSchema = v.strictObject({
  model: v.picklist(["3d", "3d_pay"], 'must be "3d" or "3d_pay"'),
  gateUrl: bankUrl,
  apiUrl: bankUrl,
  clientId: token(64),
  apiUser: token(64),
  apiPassword: token(200),
  storeKey: token(200),
  lang: v.nullish(v.picklist(["tr", "en"], 'must be "tr" or "en"')),
  timeoutMs,
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
export const parseEstConfig = (connectionId: string, json: string | null): EstConfig =>
  toEstConfig(parseStoredSettings("est", connectionId, json, estConfigSchema));

/** What CLI output and logs may show of a connection's settings. */
export const redactEstConfig = (c: EstConfig): Record<string, unknown> => ({ ...c, apiPassword: "[redacted]", storeKey: "[redacted]" });
