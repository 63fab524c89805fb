import type { Deps } from "../../deps";
import type { Repos } from "../../store/repos";

/**
 * SEAM for payment links (interface 3.1, product 7): what a link payment's attempt does to its
 * link. Each hook runs INSIDE the unit of work that moves the payment, so the link and the
 * payment change together (and `payment_link.completed` commits with `payment.captured`).
 *
 * - attemptStarted: the attempt entered 3D Secure (link launched|failed -> initiated).
 * - attemptFailed: the attempt ended without a capture: declined at 3D start, 3D or capture
 *   rejected, allowance exhausted, or the payment's window expired (link initiated -> failed).
 * - completed: capture approved (link -> completed, webhook payment_link.completed).
 *
 * The payment-links service (src/domain/payment-links/service.ts) did not exist when this was
 * written; it wires itself in with `setLinkPaymentHooks` (or replaces these defaults with direct
 * calls to its markAttemptStarted / markAttemptFailed / markCompleted). Until then, link
 * payments move only themselves.
 */
export type LinkPaymentHook = (tx: Repos, deps: Deps, linkId: string, nowMs: number) => void;

export type LinkPaymentHooks = {
  attemptStarted: LinkPaymentHook;
  attemptFailed: LinkPaymentHook;
  completed: LinkPaymentHook;
};

const NONE: LinkPaymentHook = () => {};

let hooks: LinkPaymentHooks = { attemptStarted: NONE, attemptFailed: NONE, completed: NONE };

export function setLinkPaymentHooks(next: LinkPaymentHooks): void {
  hooks = next;
}

/** Runs the hook when the payment belongs to a link; API payments have none. */
export function onLinkPayment(event: keyof LinkPaymentHooks, tx: Repos, deps: Deps, linkId: string | null, nowMs: number): void {
  if (linkId !== null) hooks[event](tx, deps, linkId, nowMs);
}
