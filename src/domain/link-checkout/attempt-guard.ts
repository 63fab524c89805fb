import type { Deps } from "../../deps";
import { LINK_CARD_ATTEMPTS_MAX } from "../../limits";
import type { Repos } from "../../store/store";
import { expireLinkIfDue } from "../payment-links/expiry";
import { markAttemptFailed, type LinkMove } from "../payment-links/service";
import type { PaymentRow } from "../../store/rows-money";

// The link's side of its payments' attempts (docs/contract.md, Link states; docs/decisions.md,
// Hardening): what the link pages ask before a payment is made, and what the link's subscriber
// to payment events (payment-events.ts) answers and does.

/** Whether an attempt of the link is in 3D Secure now: started, and not captured, failed or expired. */
export async function hasPaymentInThreeD(tx: Repos, linkId: string): Promise<boolean> {
  for (const code of await tx.linkCheckout.initiatedCodes(linkId)) {
    if ((await tx.payments.get(code))?.threeDStarted === true) return true;
  }
  return false;
}

/**
 * A link payment captures only while its link is still payable (docs/decisions.md, Hardening).
 * The refusal when the payment's link was cancelled or has expired (expired here, in this unit,
 * when due), else null.
 */
export async function closedLinkRefusal(
  tx: Repos,
  deps: Pick<Deps, "ids" | "timers">,
  payment: PaymentRow,
  nowMs: number,
): Promise<"payment_link_cancelled" | "payment_link_expired" | null> {
  const link = payment.linkId === null ? undefined : await tx.links.get(payment.linkId);
  if (!link) return null;
  const status = (await expireLinkIfDue(tx, deps, link, nowMs)).status;
  return status === "cancelled" ? "payment_link_cancelled" : status === "expired" ? "payment_link_expired" : null;
}

/**
 * docs/decisions.md, Hardening: a link accepts at most LINK_CARD_ATTEMPTS_MAX card attempts over its whole life,
 * across its payments, so one public link cannot test cards (each payment's own allowance of 3
 * starts again with the next payment). Checked before a payment is made and again, in the same
 * unit that records the attempt, before any bank call.
 */
export async function linkCardAttemptsUsedUp(tx: Repos, linkId: string): Promise<boolean> {
  return (await tx.linkCheckout.cardAttempts(linkId)) >= LINK_CARD_ATTEMPTS_MAX;
}

/**
 * initiated -> failed, unless another of the link's payments is in 3D Secure. The subscriber calls
 * this after the failing payment has left 3D (failed, expired, or its 3D start released), so it
 * never counts itself. What it guards against: a payment of the link whose 3D never started (a
 * tab that lost the race for the attempt) failing or expiring while the winner is at the bank,
 * which must not make the link payable for a second attempt.
 */
export async function failLinkAttempt(tx: Repos, deps: Pick<Deps, "ids" | "timers">, linkId: string, nowMs: number): Promise<LinkMove> {
  if (await hasPaymentInThreeD(tx, linkId)) {
    const link = await tx.links.get(linkId);
    if (link) return { moved: false, link };
  }
  return await markAttemptFailed(tx, deps, linkId, nowMs);
}
