import * as v from "valibot";
import { bankUrl, digits, parseStoredSettings, timeoutMs, token } from "../settings-fields";

// The seed file's `garanti` object of a connection with `"bank": "garanti"` (docs/banks-garanti.md,
// "Seed object"). The first ten fields are required; URLs are absolute https, or http on a
// loopback host (the sandbox's own simulator). `provPassword`, `refundPassword` and `storeKey` are
// secrets: every message here names the field and the rule, never the value.

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
  timeoutMs,
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
export const parseGarantiConfig = (connectionId: string, json: string | null): GarantiConfig =>
  toGarantiConfig(parseStoredSettings("garanti", connectionId, json, garantiConfigSchema));

/** What CLI output and logs may show of a connection's settings. */
export const redactGarantiConfig = (c: GarantiConfig): Record<string, unknown> => ({
  ...c,
  provPassword: "[redacted]",
  refundPassword: "[redacted]",
  storeKey: "[redacted]",
});
