import { BIN_DIGITS } from "../../limits";
import { parseCardForm, type CardForm, type CardProblem } from "../payments/card-form";

// The form fields of the link pages (docs/decisions.md, Readings of the contract): the handoff's card fields (`pan`, `expireMonth`,
// `expireYear`, `cv2`) plus `installment`, and `bin` on the first step without JavaScript.

/** The largest count a form may name; anything above is malformed rather than merely not offered. */
const INSTALLMENT_MAX = 99;

const BIN = new RegExp(`^[0-9]{${BIN_DIGITS}}$`);
const COUNT = /^[0-9]{1,2}$/;

export type LinkFormProblem = CardProblem | "bin" | "installment";

/** The first 8 card digits; spaces are forgiven because buyers type the number in groups. */
export function parseBin(raw: string | undefined): string | null {
  const bin = (raw ?? "").replace(/ /g, "");
  return BIN.test(bin) ? bin : null;
}

/** A count of 1-99 as typed in a form; whether it is offered is the options' business. */
export function parseInstallment(raw: string | undefined): number | null {
  if (raw === undefined || !COUNT.test(raw)) return null;
  const count = Number(raw);
  return count >= 1 && count <= INSTALLMENT_MAX ? count : null;
}

/** The pay form, checked; `card.paymentRef` is empty until the attempt has a payment. */
export type LinkPayForm = { card: CardForm; installment: number };

export type LinkPayFormResult = { ok: true; value: LinkPayForm } | { ok: false; problem: LinkFormProblem };

/** Card checks first (docs/checkout.md, Card data, same rules as the relay), then the count. */
export function parseLinkPayForm(form: Readonly<Record<string, string>>, nowMs: number): LinkPayFormResult {
  const card = parseCardForm({ ...form, paymentRef: "" }, nowMs);
  if (!card.ok) return card;
  const installment = parseInstallment(form.installment);
  if (installment === null) return { ok: false, problem: "installment" };
  return { ok: true, value: { card: card.value, installment } };
}
