import type { SimProfile } from "../../test-cards";
import { CALLBACK_HASH_PARAMS, callbackHash } from "../crypt";
import { newCavv, newMd, newXid } from "./random";

// The gate's answer as data: the exact callback fields the browser posts back. Kept pure
// (randomness comes in through random.ts, the profile as an argument) so tests can build and
// re-sign the same fields without a browser.

/** The 3D part of the callback. */
export interface ThreeDResult {
  mdStatus: string;
  md: string;
  xid: string;
  eci: string;
  cavv: string;
  txnStatus: string;
  mdErrorMessage: string;
}

/** The 3D outcome from the card's profile (test-cards.ts); the PAN is used for its first digit only. */
export function decideThreeD(pan: string, profile: SimProfile): ThreeDResult {
  const md = newMd();
  const xid = newXid();
  if (profile === "auth_fails") {
    return { mdStatus: "0", md, xid, eci: "", cavv: "", txnStatus: "N", mdErrorMessage: "Not authenticated" };
  }
  if (profile === "decline_at_3d") {
    return { mdStatus: "7", md, xid, eci: "", cavv: "", txnStatus: "N", mdErrorMessage: "Sistem Hatasi" };
  }
  return {
    mdStatus: "1",
    md,
    xid,
    eci: pan.startsWith("4") ? "05" : "02",
    cavv: newCavv(),
    txnStatus: "Y",
    mdErrorMessage: "Authenticated",
  };
}

/** The 3D_PAY gate's own sale, added to the signed fields. */
export interface GatePayment {
  procReturnCode: string;
  response: string;
  authCode: string;
  hostRefNum: string;
  errMsg: string;
}

/** `42822090****8012` as the bank masks; empty for a number that is not card-shaped. */
export const maskPan = (pan: string): string => (/^\d{12,19}$/.test(pan) ? `${pan.slice(0, 8)}****${pan.slice(-4)}` : "");

const CARD_FIELDS = new Set(["cardnumber", "cardexpiredatemonth", "cardexpiredateyear", "cardcvv2"]);

export interface GateCallbackInput {
  /** The merchant's form as posted (text values); the card fields are dropped here. */
  posted: ReadonlyArray<readonly [string, string]>;
  pan: string;
  storeKey: string;
  threeD: ThreeDResult;
  payment: GatePayment | null;
  rnd: string;
}

/** The callback the browser posts to the merchant: the echoed form, the bank's fields, `hash` last. */
export function gateCallbackFields(input: GateCallbackInput): Array<[string, string]> {
  const posted = new Map(input.posted);
  const { threeD, payment } = input;
  const bank: Record<string, string> = {
    mdstatus: threeD.mdStatus,
    md: threeD.md,
    xid: threeD.xid,
    eci: threeD.eci,
    cavv: threeD.cavv,
    mderrormessage: threeD.mdErrorMessage,
    txnstatus: threeD.txnStatus,
    clientid: posted.get("terminalid") ?? "",
    oid: posted.get("orderid") ?? "",
    authcode: payment?.authCode ?? "",
    procreturncode: payment?.procReturnCode ?? "",
    response: payment?.response ?? "",
    hostrefnum: payment?.hostRefNum ?? "",
    errmsg: payment?.errMsg ?? "",
    transid: posted.get("orderid") ?? "",
    rnd: input.rnd,
    MaskedPan: maskPan(input.pan),
  };
  const echoed = input.posted.filter(([n]) => !CARD_FIELDS.has(n) && !(n in bank));
  const values = CALLBACK_HASH_PARAMS.map((name) => bank[name] ?? "");
  const hash = callbackHash(
    values.map((v) => new TextEncoder().encode(v)),
    input.storeKey,
  );
  return [
    ...echoed.map(([n, v]) => [n, v] as [string, string]),
    ...Object.entries(bank),
    ["hashparams", `${CALLBACK_HASH_PARAMS.join(":")}:`],
    ["hashparamsval", values.join("")],
    ["hash", hash],
  ];
}
