import type { Deps } from "../../deps";
import type { Repos } from "../../store/store";
import { expireIfDue } from "../payments/transitions";

// A link's own payments, as its pages need them (docs/contract.md#link-states read with 3.2).

/**
 * Expires the link's payments whose 3D window has passed and that the timer has not reached yet
 * (docs/decisions.md, Readings of the contract: passed means now >= expiresAt), so a page never shows a link as busy with an
 * attempt that is already over. Each expiry moves the link through the payments engine's hook.
 */
export async function settleDuePayments(tx: Repos, deps: Deps, linkId: string, nowMs: number): Promise<void> {
  for (const code of await tx.linkCheckout.initiatedCodes(linkId)) {
    const payment = await tx.payments.get(code);
    if (payment) await expireIfDue(tx, deps, payment, nowMs);
  }
}
