import type { Deps } from "../../deps";
import { fail, type ErrorCode } from "../../errors";
import type { Ids } from "../../ids";
import { invariant } from "../../invariant";
import { LINK_VALIDITY_MS } from "../../limits";
import type { Repos } from "../../store/store";
import type { Timers } from "../../timers";
import { assertAcceptingPayments } from "../acceptance/service";
import { enqueueWebhook } from "../webhooks/outbox";
import { assertNoSensitiveData, effectiveCounts, toAllowedCounts, toCheckedRedirectUrl, toLinkItems, usableTerminal } from "./create-rules";
import { expireDueLinksOf, expireLinkIfDue, isLinkDue, LINK_EXPIRY_TIMER } from "./expiry";
import { hasMoreAfter, type LinkListQuery } from "./list-query";
import { cancelRefusalOf, isOpenLinkStatus, LINK_TRANSITIONS, nextLinkStatus, OPEN_LINK_STATUSES } from "./machine";
import type { CreateLinkInput } from "./schema";
import type { LinkRow, LinkStatus, PartnerRow } from "../../store/rows";

type UnitDeps = { ids: Ids; timers: Timers };

/**
 * docs/contract.md, Create a link. Check precedence, walked in this order by the API tests:
 *   1. body shape, unknown fields, items 1-50 and their limits (400 validation_error, schema.ts)
 *   2. redirectUrl rules of 4.1.1 (400 validation_error)
 *   3. a whole free-text field that is a card number or IBAN (400 sensitive_data_not_allowed)
 *   4. terminal not the caller's or inactive (403 terminal_not_allowed)
 *   5. partner not accepting payments (403 partner_not_active)
 *   6. allowedInstallmentCounts empty or outside the effective set (422 installment_not_allowed)
 *   7. item amounts not summing to amount (422 payment_link_items_amount_mismatch)
 * Every 400 comes first because it is decidable from the request and the caller's own settings
 * alone; the terminal comes before the account state because it is part of the request, and the
 * 422s need the terminal. Nothing is written unless every check passed.
 */
export async function createLink(deps: Deps, partner: PartnerRow, input: CreateLinkInput): Promise<LinkRow> {
  const redirectUrl = toCheckedRedirectUrl(input.redirectUrl, partner);
  assertNoSensitiveData(input);
  return deps.store.write(async (tx) => {
    const nowMs = deps.clock.nowMs();
    const terminal = await usableTerminal(tx, partner.id, input.terminalId);
    await assertAcceptingPayments(tx, partner, nowMs);
    const allowedCounts = toAllowedCounts(input.allowedInstallmentCounts, await effectiveCounts(tx, terminal, partner));
    const items = toLinkItems(input.items, input.amount);
    const link: LinkRow = {
      id: deps.ids.linkId(),
      partnerId: partner.id,
      token: deps.ids.linkToken(),
      partnerReference: await tx.partners.nextLinkReference(partner.id),
      terminalId: terminal.id,
      status: LINK_TRANSITIONS.create.to,
      amount: input.amount,
      shareBps: input.customerCommissionShareBps ?? 0,
      description: input.description ?? null,
      redirectUrl,
      allowedCounts,
      items,
      payerName: input.payerName ?? null,
      attemptSeq: 0,
      firstOpenedAtMs: null,
      lastOpenedAtMs: null,
      expiresAtMs: nowMs + LINK_VALIDITY_MS,
      createdAtMs: nowMs,
      updatedAtMs: nowMs,
    };
    await tx.links.insert(link);
    // A rolled-back unit leaves a timer that finds no row and does nothing.
    deps.timers.schedule(LINK_EXPIRY_TIMER, link.id, link.expiresAtMs);
    return link;
  });
}

/** docs/contract.md, Read and cancel a link: another partner's link is as absent as an unknown one. */
export async function getLink(deps: Deps, partner: PartnerRow, id: string): Promise<LinkRow> {
  const link = (await deps.store.q.links.getOwned(partner.id, id)) ?? fail("payment_link_not_found");
  if (!isLinkDue(link, deps.clock.nowMs())) return link;
  return deps.store.write(async (tx) => await expireLinkIfDue(tx, deps, await mustGetLink(tx, id), deps.clock.nowMs()));
}

/** docs/contract.md, List links; docs/decisions.md, Readings of the contract. */
export async function listLinks(deps: Deps, partner: PartnerRow, query: LinkListQuery) {
  await expireDueLinksOf(deps, partner.id);
  const links = await deps.store.q.links.list({
    partnerId: partner.id,
    statuses: query.statuses,
    minAmount: query.minAmount,
    maxAmount: query.maxAmount,
    createdFromMs: query.createdFromMs,
    createdToMs: query.createdToMs,
    limit: query.size,
    offset: query.page * query.size,
  });
  return { links, page: query.page, size: query.size, hasMore: hasMoreAfter(links.length, query.page, query.size) };
}

/**
 * docs/contract.md, Read and cancel a link / Link states. A link past its expiresAt whose timer has not run yet is expired first,
 * in the same unit (state and payment_link.expired outbox row), and then refused with 409
 * payment_link_expired. The refusal is returned from the unit rather than thrown, since a throw
 * would roll that expiry back. The cancel itself is a conditional update; when it loses to a
 * concurrent change (a completing payment), the answer follows the state that won.
 */
export async function cancelLink(deps: Deps, partner: PartnerRow, id: string): Promise<LinkRow> {
  const outcome = await deps.store.write(async (tx): Promise<{ link: LinkRow } | { refused: ErrorCode }> => {
    const nowMs = deps.clock.nowMs();
    const found = await tx.links.getOwned(partner.id, id);
    if (!found) return { refused: "payment_link_not_found" };
    const link = await expireLinkIfDue(tx, deps, found, nowMs);
    if (nextLinkStatus(link.status, "cancel") !== null && (await tx.links.markCancelled(id, LINK_TRANSITIONS.cancel.from, nowMs))) {
      return { link: await mustGetLink(tx, id) };
    }
    const current = await mustGetLink(tx, id);
    const refused = cancelRefusalOf(current.status);
    invariant(refused !== null, `cancel of link ${id} neither moved nor met a terminal state (${current.status})`);
    return { refused };
  });
  if ("refused" in outcome) fail(outcome.refused);
  return outcome.link;
}

/** The hosted pages' lookup by the secret part of the url (docs/checkout.md, Payment link pages); undefined when unknown. */
export async function getLinkByToken(q: Repos, token: string): Promise<LinkRow | undefined> {
  return await q.links.byToken(token);
}

// Transitions driven by the hosted pages and link payments (docs/contract.md, Link states; docs/checkout.md, Payment link pages). Each runs
// inside the caller's unit of work, applies the expiry rule first, then the machine table's row,
// and answers whether the state moved together with the row as it now stands.

export type LinkMove = { moved: boolean; link: LinkRow };

async function mustGetLink(tx: Repos, id: string): Promise<LinkRow> {
  const link = await tx.links.get(id);
  invariant(link !== undefined, `payment link ${id} exists`);
  return link;
}

/** docs/checkout.md, Payment link pages: the first open moves pending -> launched; every open of an open link stamps lastOpenedAt. */
export async function markOpened(tx: Repos, deps: UnitDeps, linkId: string, nowMs: number): Promise<LinkMove> {
  const link = await expireLinkIfDue(tx, deps, await mustGetLink(tx, linkId), nowMs);
  if (nextLinkStatus(link.status, "open") !== null) {
    const moved = await tx.links.markLaunched(linkId, LINK_TRANSITIONS.open.from, nowMs);
    return { moved, link: await mustGetLink(tx, linkId) };
  }
  // A terminal link is left untouched: its record no longer changes.
  if (isOpenLinkStatus(link.status)) await tx.links.touchOpened(linkId, OPEN_LINK_STATUSES, nowMs);
  return { moved: false, link: await mustGetLink(tx, linkId) };
}

type PaymentEvent = "attempt-start" | "attempt-fail" | "complete";

const STORE_MOVES: Record<PaymentEvent, (tx: Repos) => (id: string, from: readonly LinkStatus[], atMs: number) => Promise<boolean>> = {
  "attempt-start": (tx) => tx.links.markInitiated,
  "attempt-fail": (tx) => tx.links.markFailed,
  complete: (tx) => tx.links.markCompleted,
};

async function moveByPayment(tx: Repos, deps: UnitDeps, linkId: string, event: PaymentEvent, nowMs: number): Promise<LinkMove> {
  const link = await expireLinkIfDue(tx, deps, await mustGetLink(tx, linkId), nowMs);
  if (nextLinkStatus(link.status, event) === null) return { moved: false, link };
  const moved = await STORE_MOVES[event](tx)(linkId, LINK_TRANSITIONS[event].from, nowMs);
  return { moved, link: await mustGetLink(tx, linkId) };
}

/** launched or failed -> initiated: an attempt enters 3D Secure; refused while initiated. */
export const markAttemptStarted = async (tx: Repos, deps: UnitDeps, linkId: string, nowMs: number): Promise<LinkMove> =>
  await moveByPayment(tx, deps, linkId, "attempt-start", nowMs);

/** initiated -> failed: the attempt ended without a capture; the link is payable again. */
export const markAttemptFailed = async (tx: Repos, deps: UnitDeps, linkId: string, nowMs: number): Promise<LinkMove> =>
  await moveByPayment(tx, deps, linkId, "attempt-fail", nowMs);

/**
 * launched, initiated or failed -> completed, with `payment_link.completed` in the same unit.
 * `moved: false` means the link was cancelled or expired first; the caller decides what
 * happens to the captured payment.
 */
export async function markCompleted(tx: Repos, deps: UnitDeps, linkId: string, nowMs: number): Promise<LinkMove> {
  const result = await moveByPayment(tx, deps, linkId, "complete", nowMs);
  if (result.moved) {
    await enqueueWebhook(tx, deps, result.link.partnerId, { type: "payment_link.completed", paymentLinkId: linkId }, nowMs);
  }
  return result;
}
