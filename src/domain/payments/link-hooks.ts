import type { Deps } from "../../deps";
import type { Repos } from "../../store/store";
import { failLinkAttempt } from "../link-checkout/attempt-guard";
import { markAttemptStarted, markCompleted, type LinkMove } from "../payment-links/service";

/**
 * What a link payment's attempt does to its link (interface 3.1, product 7). Each runs INSIDE the
 * unit of work that moves the payment, so the link and the payment change together (and
 * `payment_link.completed` commits with `payment.captured`):
 *
 * - attemptStarted: the attempt enters 3D Secure (link launched|failed -> initiated);
 * - attemptFailed: the attempt ended without a capture: declined at 3D start, 3D or capture
 *   rejected, allowance exhausted, or the payment's window expired (link initiated -> failed),
 *   unless another payment of the link is in 3D Secure: a payment whose 3D never started (a tab
 *   that lost the race for the attempt) must not free the link its winner holds;
 * - completed: capture approved (link -> completed, webhook payment_link.completed).
 *
 * API payments have no link: null.
 */
const HOOKS = {
  attemptStarted: markAttemptStarted,
  attemptFailed: failLinkAttempt,
  completed: markCompleted,
} as const;

export async function onLinkPayment(
  event: keyof typeof HOOKS,
  tx: Repos,
  deps: Deps,
  linkId: string | null,
  nowMs: number,
): Promise<LinkMove | null> {
  return linkId === null ? null : await HOOKS[event](tx, deps, linkId, nowMs);
}
