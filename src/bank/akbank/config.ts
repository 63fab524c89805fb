import * as v from "valibot";
import { bankUrl, parseStoredSettings, timeoutMs, token } from "../settings-fields";

// The seed file's `akbank` object of a connection with `"bank": "akbank"` (docs/banks-akbank.md,
// "Seed file"). URLs are absolute https, or http on a loopback host (the sandbox's own simulator).
// `secretKey` is the one secret: every message here names the field and the rule, never the value.

export const akbankConfigSchema = v.strictObject({
  model: v.picklist(["3d", "3d_pay"], 'must be "3d" or "3d_pay"'),
  gateUrl: bankUrl,
  apiUrl: bankUrl,
  merchantSafeId: token(64),
  terminalSafeId: token(64),
  secretKey: token(512),
  subMerchantId: v.nullish(token(64)),
  lang: v.nullish(v.picklist(["TR", "EN"], 'must be "TR" or "EN"')),
  timeoutMs,
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
export const parseAkbankConfig = (connectionId: string, json: string | null): AkbankConfig =>
  toAkbankConfig(parseStoredSettings("akbank", connectionId, json, akbankConfigSchema));

/** What CLI output and logs may show of a connection's settings. */
export const redactAkbankConfig = (c: AkbankConfig): Record<string, unknown> => ({ ...c, secretKey: "[redacted]" });

/** `{apiUrl}/transaction/process`: every payment, void, refund and order-history call. */
export const processUrl = (c: AkbankConfig): string => `${c.apiUrl.replace(/\/+$/, "")}/transaction/process`;

/** `{apiUrl}/portal/report/transaction`: the daily transaction list. */
export const reportUrl = (c: AkbankConfig): string => `${c.apiUrl.replace(/\/+$/, "")}/portal/report/transaction`;
