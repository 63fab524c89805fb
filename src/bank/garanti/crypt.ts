import { createHash, timingSafeEqual } from "node:crypto";

// Garanti GVP's hashes (docs/banks-garanti.md, "The protocol as kasa speaks it"): plain
// concatenation, no separator, upper-case hex. SecurityData is SHA-1 of a password and the terminal
// id padded to 9 digits; the 3D form (`secure3dhash`), the XML (`HashData`) and the callback
// (`hash`) are SHA-512 (apiversion 512). Values are hashed as UTF-8 bytes; a callback's values as
// the raw octets the bank posted.

const upperHex = (algorithm: "sha1" | "sha512", parts: ReadonlyArray<string | Uint8Array>): string => {
  const h = createHash(algorithm);
  for (const part of parts) h.update(part);
  return h.digest("hex").toUpperCase();
};

/** `UPPER(HEX(SHA1(password ‖ terminalId left-padded with "0" to 9)))`. */
export const securityData = (password: string, terminalId: string): string => upperHex("sha1", [password, terminalId.padStart(9, "0")]);

/** The fields of the 3D form that `secure3dhash` covers, in its order. */
export interface FormHashInput {
  terminalid: string;
  orderid: string;
  txnamount: string;
  txncurrencycode: string;
  successurl: string;
  errorurl: string;
  txntype: string;
  txninstallmentcount: string;
}

export const secure3dHashPlaintext = (f: FormHashInput, storeKey: string, provPassword: string): string =>
  f.terminalid +
  f.orderid +
  f.txnamount +
  f.txncurrencycode +
  f.successurl +
  f.errorurl +
  f.txntype +
  f.txninstallmentcount +
  storeKey +
  securityData(provPassword, f.terminalid);

export const secure3dHash = (f: FormHashInput, storeKey: string, provPassword: string): string =>
  upperHex("sha512", [secure3dHashPlaintext(f, storeKey, provPassword)]);

/** What `HashData` covers; a missing card number or currency is "". Terminal/ID is not padded here. */
export interface HashDataInput {
  orderId: string;
  terminalId: string;
  cardNumber: string;
  amount: string;
  currencyCode: string;
}

/** `password`: the refund password for `void` and `refund`, the provision password otherwise. */
export const hashData = (i: HashDataInput, password: string): string =>
  upperHex("sha512", [i.orderId + i.terminalId + i.cardNumber + i.amount + i.currencyCode + securityData(password, i.terminalId)]);

/** The only `hashparams` kasa accepts (the trailing `:` optional): the names are not inside the hash. */
export const CALLBACK_HASH_PARAMS = [
  "clientid",
  "oid",
  "authcode",
  "procreturncode",
  "response",
  "mdstatus",
  "cavv",
  "eci",
  "md",
  "rnd",
] as const;

/** `UPPER(HEX(SHA512(each named value ‖ storeKey)))`, over bytes; a missing value counts as "". */
export const callbackHash = (values: ReadonlyArray<Uint8Array>, storeKey: string): string => upperHex("sha512", [...values, storeKey]);

/** Constant-time comparison of two upper-case hex hashes (the claimed one upper-cased first). */
export function hexHashEquals(expected: string, claimed: string): boolean {
  const a = Buffer.from(expected, "latin1");
  const b = Buffer.from(claimed.toUpperCase(), "latin1");
  return a.length === b.length && timingSafeEqual(a, b);
}
