import type { CallbackContext, CallbackResult } from "../gateway";
import { fromLira, toInstallCount } from "./amounts";
import type { AkbankConfig } from "./config";
import { callbackHash, sameSignature } from "./crypt";
import { parseForm } from "./form";
import { oidOf } from "./oid";

// The bank's callback (docs/banks-akbank.md, "Callback"): the HMAC over exactly the fields that
// `hashParams` names, in constant time. Only those fields are trusted; a field outside them (even
// `mdStatus`) means nothing. The signed order id must be the attempt's, signed terminal ids the
// connection's, and any amount, currency or installment count the callback carries must equal the
// attempt's. The profile for capture holds the 3D proof (model 3d) or the bank's payment result
// (model 3d_pay); no card data is in a callback or in the profile.

export const APPROVED = "VPS-0000";
const SECURE = ["secureId", "secureEcomInd", "secureData", "secureMd"] as const;

export type AkbankProfile =
  | { model: "3d"; secureId: string; secureEcomInd: string; secureData: string; secureMd: string }
  | { model: "3d_pay"; responseCode: string; hostResponseCode: string; authCode: string; message: string };

type Signed = (name: string) => string | undefined;

/** Echoes the attempt fixes, checked wherever the callback carries them. */
function echoProblem(config: AkbankConfig, values: Map<string, string>, context: CallbackContext): string | null {
  const amount = values.get("amount");
  if (amount !== undefined && amount !== "" && fromLira(amount) !== context.amount) return "echoed amount differs from the attempt";
  const currency = values.get("currencyCode");
  if (currency !== undefined && currency !== "" && currency !== "949") return "echoed currencyCode differs from the attempt";
  const count = values.get("installCount");
  if (count !== undefined && count !== "" && count !== String(toInstallCount(context.installment)))
    return "echoed installCount differs from the attempt";
  for (const [name, expected] of [
    ["merchantSafeId", config.merchantSafeId],
    ["terminalSafeId", config.terminalSafeId],
  ] as const) {
    const value = values.get(name);
    if (value !== undefined && value !== "" && value !== expected) return `echoed ${name} differs from the connection`;
  }
  return null;
}

/** Did the bank sign a success of this model, with every field the next step relies on signed? */
function successOf(config: AkbankConfig, signed: Signed, names: ReadonlySet<string>): boolean {
  if (signed("responseCode") !== APPROVED) return false;
  const needs = ["merchantSafeId", "terminalSafeId", "txnCode", ...(config.model === "3d" ? SECURE : ["authCode", "rrn"])];
  if (!needs.every((n) => names.has(n))) return false;
  return signed("txnCode") === (config.model === "3d" ? "3001" : "1000");
}

export function verifyAkbankCallback(config: AkbankConfig, raw: Uint8Array, context: CallbackContext): CallbackResult {
  const fields = parseForm(raw);
  if (fields === null) return { ok: false, reason: "the callback is not readable UTF-8 form data" };
  const values = new Map(fields);
  if (values.size !== fields.length) return { ok: false, reason: "a field is posted twice" };
  const hash = values.get("hash");
  const hashParams = values.get("hashParams");
  if (!hash || !hashParams) return { ok: false, reason: "no hash or hashParams" };
  if (
    !sameSignature(
      callbackHash(config.secretKey, hashParams, (n) => values.get(n)),
      hash,
    )
  )
    return { ok: false, reason: "hash does not match" };
  const names = new Set(hashParams.split("+"));
  if (!names.has("responseCode") || !names.has("orderId"))
    return { ok: false, reason: "hashParams leave responseCode or orderId unsigned" };
  const signed: Signed = (n) => (names.has(n) ? (values.get(n) ?? "") : undefined);
  if (signed("orderId") !== oidOf(context.attemptId)) return { ok: false, reason: "signed orderId is not this attempt's" };
  const problem = echoProblem(config, values, context);
  if (problem) return { ok: false, reason: problem };
  const success = successOf(config, signed, names);
  // A signed approval that leaves a field the next step needs unsigned is not trusted as either
  // outcome: refused, so a charge at a 3D Pay gate is found by asking the bank, never assumed.
  if (!success && signed("responseCode") === APPROVED) return { ok: false, reason: "an approval with required fields unsigned" };
  const get = (n: string) => signed(n) ?? "";
  if (config.model === "3d") {
    const profile: AkbankProfile = {
      model: "3d",
      secureId: get("secureId"),
      secureEcomInd: get("secureEcomInd"),
      secureData: get("secureData"),
      secureMd: get("secureMd"),
    };
    return { ok: true, authenticated: success, bankProfile: JSON.stringify(profile) };
  }
  // 3D Pay: the bank went on to the payment (txnCode 1000) only after a passed 3D step; its signed
  // answer is the payment's result, approved or declined.
  const paid = signed("txnCode") === "1000" && names.has("hostResponseCode");
  const profile: AkbankProfile = {
    model: "3d_pay",
    responseCode: get("responseCode") || "none",
    hostResponseCode: get("hostResponseCode"),
    authCode: get("authCode"),
    message: [get("responseCode"), get("responseMessage"), get("hostMessage")].filter(Boolean).join(" "),
  };
  return { ok: true, authenticated: success || paid, bankProfile: JSON.stringify(profile) };
}

export function readAkbankProfile(bankProfile: string): AkbankProfile | null {
  try {
    const p = JSON.parse(bankProfile) as AkbankProfile;
    return p.model === "3d" || p.model === "3d_pay" ? p : null;
  } catch {
    return null;
  }
}
