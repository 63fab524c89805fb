import type { CallbackContext, CallbackResult } from "../gateway";
import type { PayflexConfig } from "./config";
import { CURRENCY_TRY } from "./requests";

// The MPI's callback (docs/banks-payflex.md, "The callback"). It carries no signature, so nothing
// in it is a result: it is accepted only for an attempt kasa enrolled and the MPI answered `Y`
// (the attempt is in the ACS step, which the domain checks before asking here), only with every
// echo equal to the attempt's (id, merchant, amount, currency, installment count, the card's first
// 6 and last 4), and only once (the domain's conditional update). Then `Status` Y means "go and
// ask the bank" with kasa's own provision; the VPOS answer decides.
//
// The callback holds the full card number and expiry, which the provision needs. They are kept in
// this process's memory only, one card per attempt, between this check and the attempt's one
// provision: never in the profile (which may be stored), the database or a log. The provision
// takes the card and leaves a mark, so a callback checked after it (a concurrent or replayed one)
// holds nothing; a card whose provision never came (the attempt closed meanwhile) is dropped
// after a few minutes, at the next check.

/** The fields every MPI callback carries (the field set of the library's fixtures). */
const REQUIRED = ["MerchantId", "Pan", "PurchAmount", "PurchCurrency", "VerifyEnrollmentRequestId", "Status"] as const;

export interface PayflexProfile {
  eci: string;
  cavv: string;
}

interface HeldCard {
  pan: string;
  /** YYMM as the callback carries it. */
  expiry: string;
  heldAtMs: number;
}

/** Longer than any callback-to-provision gap (milliseconds in-process). */
const HOLD_MS = 2 * 60 * 1000;
const held = new Map<string, HeldCard>();
/** Attempts whose card was taken, and when it was last seen: a later callback holds nothing. */
const taken = new Map<string, number>();
let lastSeenMs = 0;

function dropStale(nowMs: number): void {
  lastSeenMs = Math.max(lastSeenMs, nowMs);
  for (const [attemptId, card] of held) if (lastSeenMs - card.heldAtMs > HOLD_MS) held.delete(attemptId);
  for (const [attemptId, atMs] of taken) if (lastSeenMs - atMs > HOLD_MS) taken.delete(attemptId);
}

/** The attempt's held card, removed as it is taken: one provision per attempt. */
export function takeCard(attemptId: string): { pan: string; expiry: string } | null {
  const card = held.get(attemptId);
  held.delete(attemptId);
  taken.set(attemptId, card?.heldAtMs ?? lastSeenMs);
  return card ? { pan: card.pan, expiry: card.expiry } : null;
}

/** How many cards this process holds (tests: none is left after a flow). */
export const heldCards = (): number => held.size;

/** `a=1&b=2` as the browser posted it, in order, names repeated as posted; null when undecodable. */
export function parseCallbackForm(raw: Uint8Array): Array<[string, string]> | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    return null;
  }
  if (text === "") return [];
  const fields: Array<[string, string]> = [];
  for (const part of text.split("&")) {
    const eq = part.indexOf("=");
    const [name, value] = eq < 0 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)];
    try {
      fields.push([decodeURIComponent(name.replaceAll("+", " ")), decodeURIComponent(value.replaceAll("+", " "))]);
    } catch {
      return null;
    }
  }
  return fields;
}

const installmentEcho = (installment: number): readonly string[] => (installment > 1 ? [String(installment)] : ["", "0"]);

/** Why the callback is not the one the attempt's enrollment would bring back, or null when it is. */
function mismatch(values: ReadonlyMap<string, string>, config: PayflexConfig, context: CallbackContext): string | null {
  for (const name of REQUIRED) if (!values.has(name)) return `no ${name}`;
  const get = (name: string) => values.get(name) ?? "";
  if (get("VerifyEnrollmentRequestId") !== context.attemptId) return "echoed VerifyEnrollmentRequestId differs from the attempt";
  if (get("MerchantId") !== config.merchantId) return "echoed MerchantId differs from the connection";
  if (get("PurchAmount") !== String(context.amount)) return "echoed PurchAmount differs from the attempt";
  if (get("PurchCurrency") !== CURRENCY_TRY) return "echoed PurchCurrency is not TRY";
  if (!installmentEcho(context.installment).includes(get("InstallmentCount"))) return "echoed InstallmentCount differs from the attempt";
  const pan = get("Pan");
  const masked = context.maskedPan ?? null;
  if (masked === null) return "the attempt's card is not known";
  if (!/^\d{12,19}$/.test(pan) || pan.slice(0, 6) !== masked.slice(0, 6) || pan.slice(-4) !== masked.slice(-4))
    return "echoed card differs from the attempt's";
  return null;
}

export function verifyPayflexCallback(config: PayflexConfig, raw: Uint8Array, context: CallbackContext): CallbackResult {
  const fields = parseCallbackForm(raw);
  if (fields === null) return { ok: false, reason: "the body is not a readable form" };
  const names = fields.map(([n]) => n);
  if (new Set(names).size !== names.length) return { ok: false, reason: "a field is posted twice" };
  const values = new Map(fields);
  const wrong = mismatch(values, config, context);
  if (wrong !== null) return { ok: false, reason: wrong };
  const get = (name: string) => values.get(name) ?? "";
  // Only a full 3D authentication goes on to a provision; `A` (attempt) and every failure end here.
  if (get("Status") !== "Y") return { ok: true, authenticated: false, bankProfile: "" };
  if (!/^\d{4}$/.test(get("Expiry")) || !/^\d{2}$/.test(get("Eci")) || get("Cavv") === "")
    return { ok: false, reason: "an authenticated callback without Expiry, Eci or Cavv" };
  dropStale(context.nowMs);
  if (taken.has(context.attemptId)) return { ok: false, reason: "the attempt's provision was sent already" };
  held.set(context.attemptId, { pan: get("Pan"), expiry: get("Expiry"), heldAtMs: context.nowMs });
  const profile: PayflexProfile = { eci: get("Eci"), cavv: get("Cavv") };
  return { ok: true, authenticated: true, bankProfile: JSON.stringify(profile) };
}

export function readPayflexProfile(bankProfile: string): PayflexProfile | null {
  try {
    const p = JSON.parse(bankProfile) as Partial<PayflexProfile>;
    return typeof p.eci === "string" && typeof p.cavv === "string" ? { eci: p.eci, cavv: p.cavv } : null;
  } catch {
    return null;
  }
}
