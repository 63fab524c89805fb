import { createHmac, timingSafeEqual } from "node:crypto";

// AkbankPos signatures (docs/banks-akbank.md, "Signatures"): one secret key signs the 3D form, every
// API body and the bank's callback, always as base64(HMAC-SHA512(key, message)). The key is used as
// the text it is typed as (its UTF-8 octets), never hex-decoded, although it looks like hex.

/** The 3D form's signed fields, in the one order the gate concatenates them (absent = ""). */
export const FORM_HASH_ORDER = [
  "paymentModel",
  "txnCode",
  "merchantSafeId",
  "terminalSafeId",
  "orderId",
  "lang",
  "amount",
  "ccbRewardAmount",
  "pcbRewardAmount",
  "xcbRewardAmount",
  "currencyCode",
  "installCount",
  "okUrl",
  "failUrl",
  "emailAddress",
  "subMerchantId",
  "creditCard",
  "expiredDate",
  "cvv",
  "randomNumber",
  "requestDateTime",
  "b2bIdentityNumber",
] as const;

export const hmacBase64 = (secretKey: string, message: string | Uint8Array): string =>
  createHmac("sha512", Buffer.from(secretKey, "utf8"))
    .update(typeof message === "string" ? Buffer.from(message, "utf8") : message)
    .digest("base64");

/** The form's plaintext: the 22 values concatenated with no separator. It holds card data: never log it. */
export const formPlaintext = (fields: Readonly<Record<string, string | null | undefined>>): string =>
  FORM_HASH_ORDER.map((name) => fields[name] ?? "").join("");

export const formHash = (secretKey: string, fields: Readonly<Record<string, string | null | undefined>>): string =>
  hmacBase64(secretKey, formPlaintext(fields));

/** The callback's plaintext: the values of the fields `hashParams` names (split on `+`), concatenated. */
export const callbackPlaintext = (hashParams: string, get: (name: string) => string | undefined): string =>
  hashParams
    .split("+")
    .map((name) => get(name) ?? "")
    .join("");

export const callbackHash = (secretKey: string, hashParams: string, get: (name: string) => string | undefined): string =>
  hmacBase64(secretKey, callbackPlaintext(hashParams, get));

/** The `auth-hash` header of an API request: over exactly the body octets sent. */
export const authHash = (secretKey: string, body: Uint8Array | string): string => hmacBase64(secretKey, body);

/** Constant-time comparison of a posted signature with the one computed here. */
export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, "latin1");
  const b = Buffer.from(given, "latin1");
  return a.length === b.length && timingSafeEqual(a, b);
}
