import { createHash, timingSafeEqual } from "node:crypto";

// Posnet's MACs (docs/banks-posnet.md, "MACs"): SHA-256 over `;`-joined values, raw digest, base64.
// The secret is the terminal's encKey, never used directly: `secData` is the hash of
// `encKey;terminalId`, and every MAC ends with it. The simulator uses the same functions.

const sha256b64 = (text: string): string => createHash("sha256").update(text, "utf8").digest("base64");

export const secData = (encKey: string, terminalId: string): string => sha256b64(`${encKey};${terminalId}`);

export interface MacAccount {
  merchantId: string;
  terminalId: string;
  encKey: string;
}

/** The MAC of `oosResolveMerchantData` and `oosTranData`: the attempt's XID, amount, currency. */
export const requestMac = (a: MacAccount, xid: string, amount: string, currency: string): string =>
  sha256b64([xid, amount, currency, a.merchantId, secData(a.encKey, a.terminalId)].join(";"));

/** The MAC the bank puts in the resolve answer, over the answer's own values. */
export const resolveAnswerMac = (a: MacAccount, mdStatus: string, xid: string, amount: string, currency: string): string =>
  sha256b64([mdStatus, xid, amount, currency, a.merchantId, secData(a.encKey, a.terminalId)].join(";"));

/** Equal in constant time (for equal lengths; a length difference is no secret). */
export function macEquals(expected: string, claimed: string): boolean {
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(claimed, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The callback `Sign` of YapıKredi's vendor kit: upper-case hex MD5 of the two packets and the
 * encKey. Unverified against today's service, so the adapter does not rely on it; the simulator
 * signs its callbacks with it and its resolve checks it, as the bank's resolve checks the Sign.
 */
export const callbackSign = (merchantPacket: string, bankPacket: string, encKey: string): string =>
  createHash("md5").update(`${merchantPacket}${bankPacket}${encKey}`, "utf8").digest("hex").toUpperCase();
