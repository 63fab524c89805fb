import type { CallbackContext, CallbackResult } from "../gateway";
import { toLira } from "../../lira";
import { toTaksit } from "./amounts";
import { oidOf } from "./oid";
import type { EstConfig } from "./config";
import { parseFormBytes } from "../form-bytes";
import { asciiBytes, ver3Matches } from "./hash";
import { decodeIso88599 } from "../iso-8859-9";

// The bank's callback (docs/banks.md): the ver3 HASH over the raw posted bytes, in constant time;
// the echoed clientid, oid, amount, currency and taksit equal to the attempt's; only mdStatus `1`
// is an authenticated buyer. The profile handed to capture holds the 3D proof (model 3d) or the
// bank's payment result (model 3d_pay); no card data is in a callback or in the profile.

export type EstProfile =
  | { model: "3d"; md: string; xid: string; eci: string; cavv: string }
  | { model: "3d_pay"; procReturnCode: string; authCode: string; errMsg: string };

const ECHOED = ["clientid", "oid", "amount", "currency", "taksit"] as const;

export function verifyEstCallback(config: EstConfig, raw: Uint8Array, context: CallbackContext): CallbackResult {
  const fields = parseFormBytes(raw);
  const names = fields.map(([n]) => n);
  if (new Set(names).size !== names.length) return { ok: false, reason: "a field is posted twice" };
  const values = new Map(fields.map(([n, value]) => [n, decodeIso88599(value)]));
  const claimed = values.get("HASH") ?? values.get("hash");
  if (!claimed) return { ok: false, reason: "no HASH" };
  if (values.get("hashAlgorithm") !== "ver3") return { ok: false, reason: "not a ver3 callback" };
  if (!ver3Matches(fields, asciiBytes(config.storeKey), claimed)) return { ok: false, reason: "HASH does not match" };
  const expected: Record<(typeof ECHOED)[number], string> = {
    clientid: config.clientId,
    oid: oidOf(context.attemptId),
    amount: toLira(context.amount),
    currency: "949",
    taksit: toTaksit(context.installment),
  };
  for (const name of ECHOED) {
    if ((values.get(name) ?? "") !== expected[name]) return { ok: false, reason: `echoed ${name} differs from the attempt` };
  }
  const authenticated = values.get("mdStatus") === "1";
  const get = (name: string) => values.get(name) ?? "";
  const profile: EstProfile =
    config.model === "3d"
      ? { model: "3d", md: get("md"), xid: get("xid"), eci: get("eci"), cavv: get("cavv") }
      : { model: "3d_pay", procReturnCode: get("ProcReturnCode"), authCode: get("AuthCode"), errMsg: get("ErrMsg") };
  return { ok: true, authenticated, bankProfile: JSON.stringify(profile) };
}

export function readEstProfile(bankProfile: string): EstProfile | null {
  try {
    const p = JSON.parse(bankProfile) as EstProfile;
    return p.model === "3d" || p.model === "3d_pay" ? p : null;
  } catch {
    return null;
  }
}
