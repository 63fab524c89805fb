import type { CallbackContext, CallbackResult } from "../gateway";
import type { GarantiConfig } from "./config";
import { CALLBACK_HASH_PARAMS, callbackHash, hexHashEquals } from "./crypt";
import { securityLevelOf } from "./form";
import { parseFormBytes } from "../form-bytes";
import { orderIdOf, toInstallment, toMinor } from "./order-id";
import { CURRENCY } from "./requests";

// The bank's callback (docs/banks-garanti.md, "Callback"): the SHA-512 `hash` over the values of
// the fields `hashparams` names, from the raw posted octets, compared in constant time. The names
// are not inside the hash, so a signed value moved into another field would still match: kasa
// accepts only the bank's own list. The signed `clientid` and `oid` and the unsigned echoes
// (order, terminal, amount, currency, installments, model), where sent, must equal the attempt's. Only
// `mdstatus` 1 is an authenticated buyer. No card data is in a callback or in the profile.

export type GarantiProfile =
  | { model: "3d"; md: string; xid: string; eci: string; cavv: string; ip: string }
  | { model: "3d_pay"; procReturnCode: string; response: string; authCode: string; hostRefNum: string; errMsg: string };

const HEX_512 = /^[0-9A-Fa-f]{128}$/;

function hashParamsOk(text: string): boolean {
  const names = text.endsWith(":") ? text.slice(0, -1).split(":") : text.split(":");
  return names.length === CALLBACK_HASH_PARAMS.length && names.every((n, i) => n === CALLBACK_HASH_PARAMS[i]);
}

export function verifyGarantiCallback(config: GarantiConfig, raw: Uint8Array, context: CallbackContext): CallbackResult {
  const fields = parseFormBytes(raw);
  const names = fields.map(([n]) => n);
  if (new Set(names).size !== names.length) return { ok: false, reason: "a field is posted twice" };
  const bytes = new Map(fields);
  const text = (name: string): string | undefined => {
    const value = bytes.get(name);
    return value === undefined ? undefined : new TextDecoder().decode(value);
  };
  const claimed = text("hash") ?? "";
  if (!HEX_512.test(claimed)) return { ok: false, reason: claimed === "" ? "no hash" : "not a SHA-512 hash (apiversion 512)" };
  if (!hashParamsOk(text("hashparams") ?? "")) return { ok: false, reason: "hashparams is not the bank's list" };
  const signed = CALLBACK_HASH_PARAMS.map((name) => bytes.get(name) ?? new Uint8Array(0));
  if (!hexHashEquals(callbackHash(signed, config.storeKey), claimed)) return { ok: false, reason: "hash does not match" };

  const orderId = orderIdOf(context.attemptId);
  if (text("clientid") !== config.terminalId) return { ok: false, reason: "signed clientid is not this terminal" };
  if (text("oid") !== orderId) return { ok: false, reason: "signed oid is another attempt's" };
  // The bank does not always echo every field (a fixture lacks txninstallmentcount); an echo it
  // sends must be the attempt's. None of them is trusted: kasa's own attempt is the source.
  const echoed: Record<string, string> = {
    orderid: orderId,
    terminalid: config.terminalId,
    txnamount: toMinor(context.amount),
    txncurrencycode: CURRENCY,
    txninstallmentcount: toInstallment(context.installment),
    secure3dsecuritylevel: securityLevelOf(config.model),
  };
  for (const [name, value] of Object.entries(echoed)) {
    const sent = text(name);
    if (sent !== undefined && sent !== value) return { ok: false, reason: `echoed ${name} differs from the attempt` };
  }
  const get = (name: string) => text(name) ?? "";
  const profile: GarantiProfile =
    config.model === "3d"
      ? { model: "3d", md: get("md"), xid: get("xid"), eci: get("eci"), cavv: get("cavv"), ip: get("customeripaddress") }
      : {
          model: "3d_pay",
          procReturnCode: get("procreturncode"),
          response: get("response"),
          authCode: get("authcode"),
          hostRefNum: get("hostrefnum"),
          errMsg: get("errmsg"),
        };
  return { ok: true, authenticated: get("mdstatus") === "1", bankProfile: JSON.stringify(profile) };
}

export function readGarantiProfile(bankProfile: string): GarantiProfile | null {
  try {
    const p = JSON.parse(bankProfile) as GarantiProfile;
    return p.model === "3d" || p.model === "3d_pay" ? p : null;
  } catch {
    return null;
  }
}
