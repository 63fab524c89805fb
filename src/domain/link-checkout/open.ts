import type { Deps } from "../../deps";
import { expireLinkIfDue, isLinkDue } from "../payment-links/expiry";
import { getLinkByToken, markOpened } from "../payment-links/service";
import { settleDuePayments } from "./payments";
import type { LinkRow } from "../../store/rows";

// Reading a link for its hosted pages (docs/checkout.md, Payment link pages). Expiry is applied on every path (interface
// 3.1, docs/decisions.md, Readings of the contract), so a page never offers a link at or past its expiresAt, however late the
// timer runs.

/**
 * `GET /l/{token}`: the first open moves pending -> launched and sets firstOpenedAt; every open
 * of an open link sets lastOpenedAt (terminal links are left as they are). Null for an unknown token.
 */
export async function openLink(deps: Deps, token: string): Promise<LinkRow | null> {
  const found = await getLinkByToken(deps.store.q, token);
  if (!found) return null;
  return deps.store.write(async (tx) => {
    const nowMs = deps.clock.nowMs();
    await settleDuePayments(tx, deps, found.id, nowMs);
    return (await markOpened(tx, deps, found.id, nowMs)).link;
  });
}

/** The link as the step pages see it, expired first when due; no open is recorded. Null when unknown. */
export async function currentLink(deps: Deps, token: string): Promise<LinkRow | null> {
  const found = await getLinkByToken(deps.store.q, token);
  if (!found) return null;
  if (!isLinkDue(found, deps.clock.nowMs())) return found;
  return deps.store.write(async (tx) => await expireLinkIfDue(tx, deps, (await tx.links.get(found.id)) ?? found, deps.clock.nowMs()));
}
