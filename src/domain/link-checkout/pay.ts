import type { Deps } from "../../deps";
import { isApiError, type ErrorCode } from "../../errors";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { assertAcceptingPayments } from "../acceptance/service";
import type { HandoffResult } from "../payments/handoff-outcomes";
import { startHandoff } from "../payments/handoff-start";
import type { InstallmentOptionJson } from "../installments/types";
import { expireLinkIfDue } from "../payment-links/expiry";
import { getLinkByToken, markOpened } from "../payment-links/service";
import { createLinkPayment } from "../payments/create";
import { failPayment } from "../payments/transitions";
import type { LinkPayForm } from "./forms";
import { chooseLinkOption, partnerOf } from "./options";
import { linkUrlOf } from "./paths";
import { hasPaymentInThreeD, linkCardAttemptsUsedUp } from "./attempt-guard";
import { settleDuePayments } from "./payments";
import { pageStateOf } from "./state";
import type { LinkRow } from "../../store/rows";
import type { PaymentRow } from "../../store/rows-money";

export type PayOutcome =
  | { kind: "unknown" }
  /** Not payable now: an attempt is in 3D Secure (another tab), or the link is terminal. */
  | { kind: "not-payable"; link: LinkRow }
  /** docs/decisions.md, Hardening: the link's lifetime card attempts are used up; no payment, no bank call. */
  | { kind: "exhausted"; link: LinkRow }
  /** Refused before any attempt (partner not accepting, option not offered for this card, terminal). */
  | { kind: "refused"; link: LinkRow; code: ErrorCode }
  /** The attempt reached the relay: the bank's 3D form, or a refused attempt (the link stays payable). */
  | { kind: "attempted"; link: LinkRow; payment: PaymentRow; result: HandoffResult };

type Prepared = { kind: "prepared"; link: LinkRow; payment: PaymentRow } | Extract<PayOutcome, { kind: "not-payable" | "exhausted" }>;

/**
 * `POST /l/{token}/pay` (docs/checkout.md, Payment link pages): the chosen option's totalAmount becomes a link payment,
 * which continues exactly as the relay (docs/checkout.md). The relay's own unit moves the link to
 * `initiated` as the attempt enters 3D Secure, and refuses the attempt when it cannot (interface
 * 3.1: one attempt at a time; the handoff's check 11), so two tabs racing here cannot both
 * reach the bank. A tab that lost that race is shown the busy page, not a failed attempt.
 */
export async function payLink(deps: Deps, token: string, form: LinkPayForm): Promise<PayOutcome> {
  const found = await getLinkByToken(deps.store.q, token);
  if (!found) return { kind: "unknown" };
  let prepared: Prepared;
  try {
    prepared = await deps.store.write((tx) => preparePayment(tx, deps, found.id, form, deps.clock.nowMs()));
  } catch (error) {
    // A refusal rolled its unit back whole (an open stamped by this request included).
    if (!isApiError(error)) throw error;
    return { kind: "refused", link: (await deps.store.q.links.get(found.id)) ?? found, code: error.code };
  }
  if (prepared.kind !== "prepared") return prepared;
  const { payment } = prepared;
  const result = await startHandoff(deps, { ...form.card, paymentRef: payment.paymentRef }, returnOriginOf(deps, prepared.link));
  const link = (await deps.store.q.links.get(found.id)) ?? prepared.link;
  if (result.kind === "refused" && pageStateOf(link.status) !== "payable") return { kind: "not-payable", link };
  // Another tab used the last attempt between this request's two units (the relay's check 4b).
  if (result.kind === "refused" && result.code === "card_attempt_limit_exceeded" && (await linkCardAttemptsUsedUp(deps.store.q, link.id))) {
    return { kind: "exhausted", link };
  }
  return { kind: "attempted", link, payment, result };
}

/**
 * The checks in order, each a refusal before anything is kept: link state (due payments and the
 * link's expiry applied first; pending is opened), the link's lifetime card attempts (429,
 * docs/decisions.md, Hardening), partner accepting payments (403), the option for this card and count (403
 * terminal_not_allowed, 422), then the payment.
 */
async function preparePayment(tx: Repos, deps: Deps, linkId: string, form: LinkPayForm, nowMs: number): Promise<Prepared> {
  // docs/postgresql.md: a link's attempts and payments are decided one unit at a time.
  await tx.links.lock(linkId);
  const stored = await tx.links.get(linkId);
  invariant(stored, `link ${linkId} read in this request exists`);
  await settleDuePayments(tx, deps, linkId, nowMs);
  let link = await expireLinkIfDue(tx, deps, (await tx.links.get(linkId)) ?? stored, nowMs);
  if (link.status === "pending") link = (await markOpened(tx, deps, link.id, nowMs)).link;
  if (pageStateOf(link.status) !== "payable" || (await hasPaymentInThreeD(tx, link.id))) return { kind: "not-payable", link };
  if (await linkCardAttemptsUsedUp(tx, link.id)) return { kind: "exhausted", link };
  await assertAcceptingPayments(tx, await partnerOf(tx, link), nowMs);
  const option = await chooseLinkOption(tx, link, form.card.bin8, form.installment);
  const payment = (await keepOnePayment(tx, deps, link, option, nowMs)) ?? (await newLinkPayment(tx, deps, link, option, nowMs));
  return { kind: "prepared", link, payment };
}

/**
 * One `initiated` payment per link at a time, the current attempt's. An earlier one whose 3D never
 * started (declined at 3D start, refused before it, or a tab that lost the race) is tried again
 * when it is for the same option: its card attempts keep counting (docs/contract.md, Payment states). Any other is
 * failed now, while the link is not initiated (so its link hook moves nothing); left to its
 * window it would hold the connection's limits until then.
 */
async function keepOnePayment(
  tx: Repos,
  deps: Deps,
  link: LinkRow,
  option: InstallmentOptionJson,
  nowMs: number,
): Promise<PaymentRow | null> {
  let kept: PaymentRow | null = null;
  for (const code of await tx.linkCheckout.initiatedCodes(link.id)) {
    const p = await tx.payments.get(code);
    invariant(p, `payment ${code} just listed exists`);
    const same = p.installment === option.installmentCount && p.amount === option.totalAmount && nowMs < p.expiresAtMs;
    if (same && kept === null) kept = p;
    else await failPayment(tx, deps, p, nowMs);
  }
  return kept;
}

async function newLinkPayment(tx: Repos, deps: Deps, link: LinkRow, option: InstallmentOptionJson, nowMs: number): Promise<PaymentRow> {
  invariant(option.totalAmount !== null, "link options are quoted with the link's amount");
  return await createLinkPayment(
    tx,
    deps,
    {
      partner: await partnerOf(tx, link),
      linkId: link.id,
      terminalId: link.terminalId,
      n: await tx.links.nextAttemptSeq(link.id),
      amount: option.totalAmount,
      principal: link.amount,
      installment: option.installmentCount,
      description: link.description,
      returnUrl: linkUrlOf(deps.config.baseUrl, "result", link.token),
    },
    nowMs,
  );
}

/**
 * Where the buyer's browser ends after the bank: the partner's redirectUrl origin, else kasa's
 * own (the hosted result page). The callback's 303 goes to the link's result page first and
 * from there to the partner; Chromium applies the ACS page's CSP form-action to every redirect
 * of that chain (docs/checkout.md), so the ACS must allow the final origin.
 */
function returnOriginOf(deps: Deps, link: LinkRow): string {
  return new URL(link.redirectUrl ?? deps.config.baseUrl).origin;
}
