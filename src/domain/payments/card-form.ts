import type { CardInput } from "../../bank/gateway";
import { BIN_DIGITS } from "../../limits";
import { Sensitive } from "../../sensitive";
import { istanbulDate } from "../checks/istanbul-time";
import { isLuhnValid } from "../checks/luhn";

// docs/checkout.md, Card data: the card fields of the handoff form (docs/checkout.md, The handoff relay and the 3D step), checked before anything else.
// The values are wrapped as Sensitive the moment they are read, and no message below repeats one.

export type CardForm = {
  paymentRef: string;
  card: CardInput;
  /** First 8 digits: only looked up in the BIN table, never stored (docs/contract.md, Payments). */
  bin8: string;
  /** The buyer's address, for banks that ask for it at 3D start (not stored; the page adds it). */
  buyerIp?: string | null;
};

/** The field that is wrong; pages say which without echoing the value. */
export type CardProblem = "pan" | "expiry" | "cv2";

export type CardFormResult = { ok: true; value: CardForm } | { ok: false; problem: CardProblem };

const PAN = /^[0-9]{13,19}$/;
const MONTH = /^(0[1-9]|1[0-2])$/;
const YEAR = /^[0-9]{2}$/;
const CVV = /^[0-9]{3,4}$/;

/** Spaces only: checkout pages often group the digits in fours. */
const compactPan = (raw: string): string => raw.replace(/ /g, "");

/**
 * A well-formed, Luhn-valid PAN of 13-19 digits; expiry MM/YY not before the current Istanbul
 * month (a card is valid through the last day of its month); a CVV of 3 or 4 digits. A missing
 * paymentRef is not card data: it is reported by the ref check that follows (payment_ref_invalid).
 */
export function parseCardForm(form: Readonly<Record<string, string>>, nowMs: number): CardFormResult {
  const pan = compactPan(form.pan ?? "");
  if (!PAN.test(pan) || !isLuhnValid(pan)) return { ok: false, problem: "pan" };
  const month = form.expireMonth ?? "";
  const year = form.expireYear ?? "";
  if (!MONTH.test(month) || !YEAR.test(year) || isPastExpiry(month, year, nowMs)) return { ok: false, problem: "expiry" };
  const cv2 = form.cv2 ?? "";
  if (!CVV.test(cv2)) return { ok: false, problem: "cv2" };
  return {
    ok: true,
    value: {
      paymentRef: form.paymentRef ?? "",
      card: {
        pan: new Sensitive(pan),
        expireMonth: new Sensitive(month),
        expireYear: new Sensitive(year),
        cv2: new Sensitive(cv2),
      },
      bin8: pan.slice(0, BIN_DIGITS),
    },
  };
}

function isPastExpiry(month: string, year: string, nowMs: number): boolean {
  const today = istanbulDate(nowMs);
  const currentIndex = Number(today.slice(0, 4)) * 12 + Number(today.slice(5, 7)) - 1;
  return (2000 + Number(year)) * 12 + Number(month) - 1 < currentIndex;
}
