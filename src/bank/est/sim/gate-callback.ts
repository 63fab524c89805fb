import { asciiBytes, type HashField, ver3Hash } from "../hash";
import { decodeIso88599, encodeIso88599 } from "../../iso-8859-9";
import { toSimProfile } from "../../test-cards";
import { newCavv, newMd, newXid } from "./random";

// The 3D gate's answer as data: which URL the browser posts back to and the exact callback bytes.
// Kept pure (randomness comes in as arguments) so tests and kasa's e2e tests can build and post
// the same bytes with encodeFormBytes, without a browser.

export const MERCHANT_NAME = "Kasa Demo Mağazası";

/** The 3D part of the callback. mdStatus null: the card number was unusable (HPP-1001). */
export interface ThreeDResult {
  mdStatus: string | null;
  md: string;
  xid: string;
  eci: string;
  cavv: string;
  txstatus: string;
  mdErrorMsg: string;
  /** Fields only a failure carries (ErrMsg/ErrCode, or Response/ErrorCode/ErrMsg), in order. */
  errors: ReadonlyArray<readonly [string, string]>;
}

/** The 3d_pay gate's own authorisation, added to the callback before hashing. */
export interface GatePayment {
  response: string;
  procReturnCode: string;
  authCode: string;
  hostRefNum: string;
  transId: string;
  returnOid: string;
  errMsg: string;
  trxDate: string;
}

export const isPanShaped = (pan: string): boolean => /^\d{12,19}$/.test(pan);

/** The 3D outcome from the card's profile (test-cards.ts); the PAN is used here and then dropped. */
export function decideThreeD(pan: string, clientId: string): ThreeDResult {
  if (!isPanShaped(pan)) {
    const errors = [
      ["Response", "Error"],
      ["ErrorCode", "HPP-1001"],
      ["ErrMsg", "Kart numarasi gecersiz."],
    ] as const;
    return { mdStatus: null, md: "", xid: "", eci: "", cavv: "", txstatus: "", mdErrorMsg: "", errors };
  }
  const md = newMd(pan.slice(0, 6), clientId);
  const xid = newXid();
  const profile = toSimProfile(pan);
  if (profile === "auth_fails") {
    return { mdStatus: "0", md, xid, eci: "", cavv: "", txstatus: "N", mdErrorMsg: "Not authenticated", errors: [] };
  }
  if (profile === "decline_at_3d") {
    const message = "Isyeri kullanim tipi desteklenmiyor.";
    const errors = [
      ["ErrMsg", message],
      ["ErrCode", "3D-1007"],
    ] as const;
    return { mdStatus: "7", md, xid, eci: "", cavv: "", txstatus: "N", mdErrorMsg: message, errors };
  }
  const eci = pan.startsWith("4") ? "05" : "02";
  return { mdStatus: "1", md, xid, eci, cavv: newCavv(), txstatus: "Y", mdErrorMsg: "Authenticated", errors: [] };
}

/** `4355 08** **** 4358` and `435508***4358`; empty for a number that is not card-shaped. */
export function maskPan(pan: string): { maskedCreditCard: string; MaskedPan: string } {
  if (!isPanShaped(pan)) return { maskedCreditCard: "", MaskedPan: "" };
  const starred = `${pan.slice(0, 6)}${"*".repeat(pan.length - 10)}${pan.slice(-4)}`;
  return { maskedCreditCard: starred.replace(/(.{4})(?=.)/g, "$1 "), MaskedPan: `${pan.slice(0, 6)}***${pan.slice(-4)}` };
}

export interface GateCallbackInput {
  /** The merchant's form as posted (pan, cv2 and hash are dropped here). */
  posted: readonly HashField[];
  storeKey: string;
  threeD: ThreeDResult;
  /** 3d_pay with mdStatus 1 only. */
  payment?: GatePayment | null;
  /** The bank's new `rnd`. */
  rnd: string;
}

export interface GateCallback {
  /** okUrl when mdStatus is 1, failUrl otherwise. */
  action: string;
  fields: Array<[string, Uint8Array]>;
}

const DROPPED = new Set(["pan", "cv2", "hash"]);

/** The callback the browser posts to the merchant: values as ISO-8859-9 bytes, HASH last. */
export function gateCallbackFields(input: GateCallbackInput): GateCallback {
  const value = (name: string) => {
    const field = input.posted.find(([n]) => n.toLowerCase() === name.toLowerCase());
    return field ? decodeIso88599(field[1]) : "";
  };
  const { threeD, payment } = input;
  const added: Array<[string, string]> = [];
  const add = (name: string, v: string) => added.push([name, v]);
  const masked = maskPan(value("pan"));
  add("maskedCreditCard", masked.maskedCreditCard);
  add("MaskedPan", masked.MaskedPan);
  if (threeD.mdStatus !== null) add("mdStatus", threeD.mdStatus);
  for (const [name, v] of [
    ["md", threeD.md],
    ["xid", threeD.xid],
    ["eci", threeD.eci],
    ["cavv", threeD.cavv],
    ["txstatus", threeD.txstatus],
    ["mdErrorMsg", threeD.mdErrorMsg],
  ] as const)
    add(name, v);
  for (const [name, v] of threeD.errors) add(name, v);
  if (payment) {
    add("Response", payment.response);
    add("ProcReturnCode", payment.procReturnCode);
    add("AuthCode", payment.authCode);
    add("HostRefNum", payment.hostRefNum);
    add("TransId", payment.transId);
    add("ReturnOid", payment.returnOid);
    add("ErrMsg", payment.errMsg);
    add("EXTRA_TRXDATE", payment.trxDate);
  }
  add("version", "2.0");
  add("rnd", input.rnd);
  add("merchantName", MERCHANT_NAME);
  add("hashAlgorithm", "ver3");
  add("encoding", "ISO-8859-9");
  // The bank's own fields win over an echoed one of the same name, so no name appears twice.
  const ours = new Set(added.map(([n]) => n.toLowerCase()));
  const echoed = input.posted.filter(([n]) => !DROPPED.has(n.toLowerCase()) && !ours.has(n.toLowerCase()));
  const fields: Array<[string, Uint8Array]> = [
    ...echoed.map(([n, v]) => [n, Uint8Array.from(v)] as [string, Uint8Array]),
    ...added.map(([n, v]) => [n, encodeIso88599(v)] as [string, Uint8Array]),
  ];
  fields.push(["HASH", asciiBytes(ver3Hash(fields, asciiBytes(input.storeKey)))]);
  return { action: threeD.mdStatus === "1" ? value("okUrl") : value("failUrl"), fields };
}
