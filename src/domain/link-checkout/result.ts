import { LINK_RESULT_REDIRECT_MS } from "../../limits";
import type { Repos } from "../../store/store";
import { toRedirectResultUrl, type RedirectOutcome } from "../checks/redirect-url";
import { isLinkDue } from "../payment-links/expiry";
import { getLinkByToken } from "../payment-links/service";
import type { LinkRow } from "../../store/rows";
import type { PaymentRow, PaymentStatus } from "../../store/rows-money";

// Where the buyer lands after the bank (docs/contract.md, redirectUrl; docs/checkout.md, Payment link pages). The relay's callback sends
// the browser to the link's result page with `?paymentCode=…&status=…`; that `status` is only
// informational (docs/checkout.md, The callback), so the outcome is read from the payment record itself.

export type LinkResult =
  | { kind: "unknown" }
  /** No settled payment of this link was named (missing, another link's, or still in 3D): show the link. */
  | { kind: "unsettled"; link: LinkRow }
  | { kind: "settled"; link: LinkRow; payment: PaymentRow; outcome: RedirectOutcome }
  /**
   * docs/decisions.md, Hardening: a settled payment whose moment has passed (it ended 10 minutes ago or more, or its
   * link was cancelled or expired since): the page of the link's state, never the partner's URL,
   * so a result URL is no standing redirect.
   */
  | { kind: "stale"; link: LinkRow };

/** A payment that was captured stays a success even if it was voided or refunded since. */
const SUCCESS: readonly PaymentStatus[] = ["captured", "voided", "refunded"];

/** When the payment's attempt ended: its capture (kept through refunds), else its last change. */
const endedAtMs = (payment: PaymentRow): number => payment.capturedAtMs ?? payment.updatedAtMs;

export async function linkResultOf(q: Repos, token: string, paymentCode: string | null, nowMs: number): Promise<LinkResult> {
  const link = await getLinkByToken(q, token);
  if (!link) return { kind: "unknown" };
  const payment = paymentCode === null ? undefined : await q.payments.get(paymentCode);
  if (!payment || payment.linkId !== link.id || payment.status === "initiated") return { kind: "unsettled", link };
  const closed = link.status === "cancelled" || link.status === "expired" || isLinkDue(link, nowMs);
  if (closed || nowMs >= endedAtMs(payment) + LINK_RESULT_REDIRECT_MS) return { kind: "stale", link };
  return { kind: "settled", link, payment, outcome: SUCCESS.includes(payment.status) ? "success" : "failure" };
}

/** `{redirectUrl}/payment/success|failure`, or null when the link has no redirectUrl (hosted page). */
export function resultLocationOf(link: LinkRow, outcome: RedirectOutcome): string | null {
  return link.redirectUrl === null ? null : toRedirectResultUrl(link.redirectUrl, outcome);
}
