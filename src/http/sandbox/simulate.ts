import type { BankModule } from "../../bank/module";
import { BANKS } from "../../bank/registry";
import { HANDOFF_PATHS } from "../../domain/payments/handoff-paths";
import { formClient, type FetchLike, type Outcome } from "./form-client";

const CALLBACK_PATH = `${HANDOFF_PATHS.callback}/`;

// docs/contract.md, The sandbox: the buyer's side of a payment, run headlessly in sandbox mode. It is a browser
// without JavaScript pointed at kasa's own pages, in-process: it posts the card to the handoff
// relay (or a link's card form), follows the auto-submitting form to the bank's simulated 3D page,
// types the one-time code where the bank asks one, and follows the bank's signed callback to its end. The same relay, bank
// and callback code a real browser reaches runs, with its attempt counting, limits and webhooks:
// nothing here writes a payment's state itself.

export type SimulatedCard = { pan: string; expireMonth: string; expireYear: string; cv2: string };

/** Where the buyer's journey ended: the code its error page showed, or "acs" once the bank's page was answered. */
export type JourneyEnd = { stage: "refused"; code: string | null } | { stage: "acs" };

const PAGE_CODE = /Hata kodu<\/dt><dd><code>([^<]+)<\/code>/;

/** A page that stopped the journey before the bank's step: its code (null on the generic pages of docs/checkout.md, The handoff relay and the 3D step). */
function refusal(out: Outcome): JourneyEnd {
  return { stage: "refused", code: out.page ? (PAGE_CODE.exec(out.page.body)?.[1] ?? null) : null };
}

/** The bank's 3D page: answer it as its bank says (the one-time code) and follow the callback; anything else is a refusal. */
async function answerAcs(
  client: ReturnType<typeof formClient>,
  banks: readonly BankModule[],
  out: Outcome,
  otp: string,
): Promise<JourneyEnd> {
  // A bank whose gate answers straight to the callback asks no code here.
  if (out.trail.some((visit) => visit.url.includes(CALLBACK_PATH))) return { stage: "acs" };
  for (const form of out.page?.status === 200 ? out.page.forms : []) {
    const shape = { action: form.action, fieldNames: form.fields.map((f) => f.name) };
    const bank = banks.find((b) => b.buyer?.isGateForm(shape));
    if (!bank?.buyer) continue;
    const { values, button } = bank.buyer.answer(otp);
    await client.submit(form, values, button);
    return { stage: "acs" };
  }
  return refusal(out);
}

export function sandboxBuyer(fetchSelf: FetchLike, baseUrl: string, banks: readonly BankModule[] = BANKS) {
  const client = formClient(fetchSelf, [baseUrl], undefined, undefined, banks);
  return {
    /** A cardless payment: the card to the relay, then the 3D step. */
    async payPayment(paymentRef: string, card: SimulatedCard, otp: string): Promise<JourneyEnd> {
      const out = await client.post(`${baseUrl}/handoff`, { paymentRef, ...card });
      return answerAcs(client, banks, out, otp);
    },
    /** A payment link: open its page, post the card form with the chosen count, then the 3D step. */
    async payLink(token: string, card: SimulatedCard, installment: number, otp: string): Promise<JourneyEnd> {
      const page = await client.get(`${baseUrl}/l/${encodeURIComponent(token)}`);
      if (!page.page || page.page.status !== 200) return refusal(page);
      const out = await client.post(`${baseUrl}/l/${encodeURIComponent(token)}/pay`, { ...card, installment: String(installment) });
      return answerAcs(client, banks, out, otp);
    },
  };
}

export type SandboxBuyer = ReturnType<typeof sandboxBuyer>;
