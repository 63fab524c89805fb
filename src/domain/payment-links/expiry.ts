import type { Deps } from "../../deps";
import type { Ids } from "../../ids";
import { LINK_EXPIRY_BATCH } from "../../limits";
import type { Repos } from "../../store/store";
import type { TimerModule } from "../../timer-module";
import type { Timers } from "../../timers";
import { enqueueWebhook } from "../webhooks/outbox";
import { isOpenLinkStatus, LINK_TRANSITIONS } from "./machine";
import type { LinkRow } from "../../store/rows";

// docs/contract.md, Link states "expiresAt passed": docs/decisions.md#readings-of-the-contract reads it as now >= expiresAt. The timer wheel
// expires each link at exactly its expiresAt; every other path that touches a link (get, list,
// cancel, the hosted pages) first applies the same rule, so no observer ever sees an open link
// past its expiry, however late the wheel runs.

export const LINK_EXPIRY_TIMER = "link-expiry";

type UnitDeps = { ids: Ids; timers: Timers };

export const isLinkDue = (link: LinkRow, nowMs: number): boolean => isOpenLinkStatus(link.status) && nowMs >= link.expiresAtMs;

/**
 * Inside a unit of work: expires `link` when it is due and queues `payment_link.expired` in the
 * same unit; answers the row as it now stands. The change is stamped at `expiresAt`, the
 * instant it took effect, whoever writes it (timer, a read, a cancel), so `updatedAt` and the
 * webhook's `occurredAt` do not depend on how late the write ran.
 */
export async function expireLinkIfDue(tx: Repos, deps: UnitDeps, link: LinkRow, nowMs: number): Promise<LinkRow> {
  if (!isLinkDue(link, nowMs)) return link;
  const atMs = link.expiresAtMs;
  if (await tx.links.markExpired(link.id, LINK_TRANSITIONS.expire.from, atMs)) {
    await enqueueWebhook(tx, deps, link.partnerId, { type: "payment_link.expired", paymentLinkId: link.id }, atMs);
  }
  return (await tx.links.get(link.id)) ?? link;
}

/** Expires every due link of a partner before a listing reads them, a batch per unit. */
export async function expireDueLinksOf(deps: Deps, partnerId: string): Promise<void> {
  for (;;) {
    const ids = await deps.store.q.links.dueForExpiry(partnerId, deps.clock.nowMs(), LINK_EXPIRY_BATCH);
    if (ids.length === 0) return;
    await deps.store.write(async (tx) => {
      const nowMs = deps.clock.nowMs();
      for (const id of ids) {
        const link = await tx.links.get(id);
        if (link) await expireLinkIfDue(tx, deps, link, nowMs);
      }
    });
    if (ids.length < LINK_EXPIRY_BATCH) return;
  }
}

/**
 * The wheel's link expiry. At-least-once: the handler re-reads the row, so a duplicate or stale
 * timer (the link was paid or cancelled meanwhile) does nothing. It never acts early: a timer
 * that fires before the row's expiresAt (the clock was set back) is put back on the wheel.
 */
export const linkExpiryTimer: TimerModule = {
  kind: LINK_EXPIRY_TIMER,
  handler: (deps) => async (key) => {
    await deps.store.write(async (tx) => {
      const link = await tx.links.get(key);
      if (!link || !isOpenLinkStatus(link.status)) return;
      const nowMs = deps.clock.nowMs();
      if (nowMs < link.expiresAtMs) deps.timers.schedule(LINK_EXPIRY_TIMER, link.id, link.expiresAtMs);
      else await expireLinkIfDue(tx, deps, link, nowMs);
    });
  },
  pending: async (deps) => (await deps.store.q.links.openExpiries()).map((r) => ({ key: r.id, dueAtMs: r.expiresAtMs })),
  due: async (deps, nowMs, limit) =>
    (await deps.store.q.links.dueExpiries(nowMs, limit)).map((r) => ({ key: r.id, dueAtMs: r.expiresAtMs })),
};
