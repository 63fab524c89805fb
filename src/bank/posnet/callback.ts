import type { CallbackContext, CallbackResult } from "../gateway";
import type { PosnetConfig } from "./config";
import { macEquals, requestMac, resolveAnswerMac } from "./crypt";
import { CURRENCY_TL, installmentOf, minorAmount, xidOf } from "./ids";
import { callPosnet, type PosnetTransport } from "./wire";
import { child, textOf } from "./xml";

// The bank's callback (docs/banks-posnet.md, "Callback"). Its packets are encrypted by the bank and
// prove nothing by themselves: kasa sends them to `oosResolveMerchantData` with the attempt's MAC,
// and trusts only an answer whose MAC verifies (constant time) and whose XID, amount, currency and
// installment are the attempt's. Only mdStatus `1` is an authenticated buyer. The profile handed
// to capture holds the three opaque strings `oosTranData` needs again; no card data is readable
// in them.

export interface PosnetProfile {
  bankData: string;
  merchantData: string;
  sign: string;
}

const PACKETS = [
  ["MerchantPacket", "merchantData"],
  ["BankPacket", "bankData"],
  ["Sign", "sign"],
] as const;
const HEX = /^[0-9A-Fa-f]{1,8192}$/;

/** The three posted strings, each exactly once and hex; a reason when not. */
export function readPackets(raw: Uint8Array): PosnetProfile | string {
  const params = new URLSearchParams(new TextDecoder("latin1").decode(raw));
  const out: Record<string, string> = {};
  for (const [posted, name] of PACKETS) {
    const values = params.getAll(posted);
    if (values.length !== 1) return values.length === 0 ? `no ${posted}` : `${posted} is posted twice`;
    if (!HEX.test(values[0] as string)) return `${posted} is not hex`;
    out[name] = values[0] as string;
  }
  return out as unknown as PosnetProfile;
}

/** The MAC of resolve and tran: over the attempt's own XID, amount and currency. */
export const attemptMac = (config: PosnetConfig, xid: string, amount: number): string =>
  requestMac(config, xid, minorAmount(amount), CURRENCY_TL);

export async function verifyPosnetCallback(
  config: PosnetConfig,
  transport: PosnetTransport,
  raw: Uint8Array,
  context: CallbackContext,
): Promise<CallbackResult> {
  const packets = readPackets(raw);
  if (typeof packets === "string") return { ok: false, reason: packets };
  const xid = xidOf(context.attemptId);
  const answer = await callPosnet(config, transport, {
    oosResolveMerchantData: { ...packets, mac: attemptMac(config, xid, context.amount) },
  });
  // No readable answer: nothing was charged, and the buyer's browser may post the callback again.
  if (answer === null) return { ok: false, reason: "no readable answer to oosResolveMerchantData" };
  const block = child(answer, "oosResolveMerchantDataResponse");
  if (textOf(answer, "approved") !== "1" || block === null) {
    return { ok: false, reason: `resolve refused: ${textOf(answer, "respCode") ?? ""} ${textOf(answer, "respText") ?? ""}`.trim() };
  }
  const field = (name: string) => textOf(block, name) ?? "";
  const expectedMac = resolveAnswerMac(config, field("mdStatus"), field("xid"), field("amount"), field("currency"));
  if (!macEquals(expectedMac, field("mac"))) return { ok: false, reason: "the resolve answer's mac does not verify" };
  const expected: Record<string, string> = {
    xid,
    amount: minorAmount(context.amount),
    currency: CURRENCY_TL,
    installment: installmentOf(context.installment),
  };
  for (const [name, value] of Object.entries(expected)) {
    if (field(name) !== value) return { ok: false, reason: `the resolved ${name} differs from the attempt` };
  }
  return { ok: true, authenticated: field("mdStatus") === "1", bankProfile: JSON.stringify(packets) };
}

export function readPosnetProfile(bankProfile: string): PosnetProfile | null {
  try {
    const p = JSON.parse(bankProfile) as PosnetProfile;
    return typeof p.bankData === "string" && typeof p.merchantData === "string" && typeof p.sign === "string" ? p : null;
  } catch {
    return null;
  }
}
