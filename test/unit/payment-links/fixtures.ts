import type { Harness } from "../../support/harness";
import type { LinkEvent } from "../../../src/domain/payment-links/machine";
import { LINK_VALIDITY_MS } from "../../../src/limits";
import type { LinkRow, LinkStatus } from "../../../src/store/rows";

/** The smallest valid create body (interface 4.1). */
export const MINIMAL_LINK = { amount: 15_000, terminalId: "T-1" } as const;

export async function createLink(h: Harness, body: Record<string, unknown> = {}, init?: { key?: string; ip?: string }) {
  return h.post("/v1/payment-links", { ...MINIMAL_LINK, ...body }, init);
}

/** Creates a link through the API and answers its wire object (fails the test unless 201). */
export async function newLink(h: Harness, body: Record<string, unknown> = {}, init?: { key?: string }) {
  const r = await createLink(h, body, init);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.json as { id: string; token: string; status: string; expiresAt: string; [k: string]: unknown };
}

// Test-side reads of other modules' rows, through named store operations (no SQL outside src/store).

export const linkCount = async (h: Harness): Promise<number> => await h.store.q.fixtures.linkCount();

/** The outbox oldest first (by creation, then id), optionally one event type. */
export const outbox = async (h: Harness, type?: string) =>
  (await h.store.q.webhooks.list({ partnerId: null, status: null, limit: 10_000 }))
    .reverse()
    .filter((r) => type === undefined || r.type === type)
    .map((r) => ({ type: r.type, body: r.body, occurredAtMs: r.occurredAtMs, json: JSON.parse(r.body) as Record<string, unknown> }));

/** A link row in any state, written straight through the store (to reach states the API cannot). */
export function linkRow(over: Partial<LinkRow> & { id: string; createdAtMs: number }): LinkRow {
  return {
    partnerId: "ptn_test",
    token: `tok_${over.id}`,
    partnerReference: 1,
    terminalId: "T-1",
    status: "pending" as LinkStatus,
    amount: 1000,
    shareBps: 0,
    description: null,
    redirectUrl: null,
    allowedCounts: null,
    items: null,
    payerName: null,
    attemptSeq: 0,
    firstOpenedAtMs: null,
    lastOpenedAtMs: null,
    expiresAtMs: over.createdAtMs + LINK_VALIDITY_MS,
    updatedAtMs: over.createdAtMs,
    ...over,
  };
}

// interface 3.1, written out again by hand, row by row: a (state, event) pair missing here has no
// row in 3.1 and must leave the link unchanged.
export const ROWS_3_1: Array<[LinkStatus | "(none)", LinkEvent, LinkStatus]> = [
  ["(none)", "create", "pending"],
  ["pending", "open", "launched"],
  ["launched", "attempt-start", "initiated"],
  ["initiated", "attempt-fail", "failed"],
  ["failed", "attempt-start", "initiated"],
  ["launched", "complete", "completed"],
  ["initiated", "complete", "completed"],
  ["failed", "complete", "completed"],
  ["pending", "expire", "expired"],
  ["launched", "expire", "expired"],
  ["initiated", "expire", "expired"],
  ["failed", "expire", "expired"],
  ["pending", "cancel", "cancelled"],
  ["launched", "cancel", "cancelled"],
  ["initiated", "cancel", "cancelled"],
  ["failed", "cancel", "cancelled"],
];

export const expectedLinkStatus = (state: LinkStatus, event: LinkEvent): LinkStatus | null =>
  ROWS_3_1.find(([s, e]) => s === state && e === event)?.[2] ?? null;
