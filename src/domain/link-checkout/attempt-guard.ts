import type { Deps } from "../../deps";
import type { Repos } from "../../store/repos";
import { markAttemptFailed, type LinkMove } from "../payment-links/service";

// Interface 3.1 "initiated -> failed: attempt fails without completing" for a link with more
// than one payment. Imports nothing from the payments engine, which calls into it (link-hooks.ts).

/** Whether an attempt of the link is in 3D Secure now: started, and not captured, failed or expired. */
export function hasPaymentInThreeD(tx: Repos, linkId: string): boolean {
  return tx.linkCheckout.initiatedCodes(linkId).some((code) => tx.payments.get(code)?.threeDStarted === true);
}

/**
 * initiated -> failed, unless another of the link's payments is in 3D Secure. The engine calls
 * this after the failing payment has left 3D (failed, expired, or its 3D start released), so it
 * never counts itself. What it guards against: a payment of the link whose 3D never started (a
 * tab that lost the race for the attempt) failing or expiring while the winner is at the bank,
 * which must not make the link payable for a second attempt.
 */
export function failLinkAttempt(tx: Repos, deps: Pick<Deps, "ids" | "timers">, linkId: string, nowMs: number): LinkMove {
  if (hasPaymentInThreeD(tx, linkId)) {
    const link = tx.links.get(linkId);
    if (link) return { moved: false, link };
  }
  return markAttemptFailed(tx, deps, linkId, nowMs);
}
