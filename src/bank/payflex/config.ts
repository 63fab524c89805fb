import * as v from "valibot";
import { bankUrl, parseStoredSettings, timeoutMs, token } from "../settings-fields";

// The seed file's `payflex` object of a connection with `"bank": "payflex"` (docs/banks-payflex.md,
// "Seed object"). Three URLs (MPI, VPOS, Search), the merchant's ids and its one password, which
// the MPI, the VPOS and the Search service all take. `password` is a secret: every message here
// names the field and the rule, never the value.

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
    timeoutMs,
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
export const parsePayflexConfig = (connectionId: string, json: string | null): PayflexConfig =>
  toPayflexConfig(parseStoredSettings("payflex", connectionId, json, payflexConfigSchema));

/** What CLI output and logs may show of a connection's settings. */
export const redactPayflexConfig = (c: PayflexConfig): Record<string, unknown> => ({ ...c, password: "[redacted]" });
