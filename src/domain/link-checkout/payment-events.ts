import type { Deps } from "../../deps";
import type { Repos } from "../../store/store";
import type { PaymentSubscriber } from "../payments/events";
import { markAttemptStarted, markCompleted } from "../payment-links/service";
import { failLinkAttempt, closedLinkRefusal, linkCardAttemptsUsedUp } from "./attempt-guard";

/**
 * What a link payment's events do to its link (docs/contract.md, Link states). Each runs INSIDE the
 * unit of work that moves the payment, so the link and the payment change together (and
 * `payment_link.completed` commits with `payment.captured`). API and panel payments have no link
 * and pass through untouched.
 *
 * - attemptRequested: the link's lifetime card attempts are used up (docs/decisions.md,
 *   Hardening): 429;
 * - attemptStarting: the attempt enters 3D Secure (link launched|failed -> initiated); a link that
 *   cannot take it refuses: expired 404 payment_ref_expired, else (another attempt in 3D, the link
 *   cancelled or paid) 409 payment_prepare_already_started;
 * - capturing: a link cancelled or expired meanwhile takes no capture;
 * - attemptReleased, failed, expired: the attempt ended without a capture (link initiated ->
 *   failed), unless another payment of the link is in 3D Secure: a payment whose 3D never started
 *   (a tab that lost the race for the attempt) must not free the link its winner holds;
 * - captured: link -> completed with webhook payment_link.completed.
 */
export const linkPaymentSubscriber: PaymentSubscriber<Deps> = {
  async attemptRequested(tx, _deps, payment) {
    if (payment.linkId === null) return null;
    return (await linkCardAttemptsUsedUp(tx, payment.linkId)) ? "card_attempt_limit_exceeded" : null;
  },
  async attemptStarting(tx, deps, payment, nowMs) {
    if (payment.linkId === null) return null;
    const { moved, link } = await markAttemptStarted(tx, deps, payment.linkId, nowMs);
    if (moved) return null;
    return link.status === "expired" ? "payment_ref_expired" : "payment_prepare_already_started";
  },
  async capturing(tx, deps, payment, nowMs) {
    return await closedLinkRefusal(tx, deps, payment, nowMs);
  },
  attemptReleased: (tx, deps, payment, atMs) => failLinkOf(tx, deps, payment.linkId, atMs),
  failed: (tx, deps, payment, atMs) => failLinkOf(tx, deps, payment.linkId, atMs),
  expired: (tx, deps, payment, atMs) => failLinkOf(tx, deps, payment.linkId, atMs),
  async captured(tx, deps, payment, nowMs) {
    if (payment.linkId === null) return;
    const { moved, link } = await markCompleted(tx, deps, payment.linkId, nowMs);
    // The money is taken either way; a link cancelled or expired meanwhile is an operator's case.
    if (!moved) {
      deps.log.warn("link payment captured but its link did not complete", {
        paymentCode: payment.code,
        linkId: payment.linkId,
        linkStatus: link.status,
      });
    }
  },
};

async function failLinkOf(tx: Repos, deps: Deps, linkId: string | null, atMs: number): Promise<void> {
  if (linkId !== null) await failLinkAttempt(tx, deps, linkId, atMs);
}
