import * as v from "valibot";
import { bankUrl, digits, parseStoredSettings, timeoutMs } from "../settings-fields";

// The seed file's `posnet` object of a connection with `"bank": "posnet"` (docs/banks-posnet.md,
// "Seed file"). Six fields are required; URLs are absolute https, or http on a loopback host (the
// sandbox's own simulator). `encKey` is the secret: every message here names the field and the
// rule, never the value. The model is always 3D, so there is no `model` field.

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
  timeoutMs,
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
export const parsePosnetConfig = (connectionId: string, json: string | null): PosnetConfig =>
  toPosnetConfig(parseStoredSettings("posnet", connectionId, json, posnetConfigSchema));

/** What CLI output and logs may show of a connection's settings. */
export const redactPosnetConfig = (c: PosnetConfig): Record<string, unknown> => ({ ...c, encKey: "[redacted]" });
