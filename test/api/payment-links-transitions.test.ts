import { afterEach, describe, expect, it } from "vitest";
import { harness, T0, type Harness } from "../support/harness";
import { linkExpiryTimer } from "../../src/domain/payment-links/expiry";
import { LINK_STATUSES, type LinkEvent } from "../../src/domain/payment-links/machine";
import { getLinkByToken, markAttemptFailed, markAttemptStarted, markCompleted, markOpened } from "../../src/domain/payment-links/service";
import { LINK_VALIDITY_MS, MINUTE_MS } from "../../src/limits";
import { expectedLinkStatus, linkRow, newLink, outbox } from "../unit/payment-links/fixtures";
import type { LinkStatus } from "../../src/store/rows";

let h: Harness;
afterEach(async () => h?.close());

const ID = "pl_walk";
const NOW = T0 + MINUTE_MS;

/** Each event of 3.1 through the path that really drives it: the pages' helpers, the API, the wheel. */
const APPLY: Record<Exclude<LinkEvent, "create">, () => Promise<unknown>> = {
  open: () => h.store.write(async (tx) => await markOpened(tx, h.deps, ID, NOW)),
  "attempt-start": () => h.store.write(async (tx) => await markAttemptStarted(tx, h.deps, ID, NOW)),
  "attempt-fail": () => h.store.write(async (tx) => await markAttemptFailed(tx, h.deps, ID, NOW)),
  complete: () => h.store.write(async (tx) => await markCompleted(tx, h.deps, ID, NOW)),
  cancel: () => h.del(`/v1/payment-links/${ID}`),
  expire: async () => {
    h.clock.set(T0 + LINK_VALIDITY_MS);
    await linkExpiryTimer.handler(h.deps)(ID, T0 + LINK_VALIDITY_MS);
  },
};

const WEBHOOK_OF: Partial<Record<LinkEvent, string>> = { complete: "payment_link.completed", expire: "payment_link.expired" };

describe("interface 3.1 every (state, event) pair through the service, the API and the wheel", () => {
  const pairs = LINK_STATUSES.flatMap((state) => (Object.keys(APPLY) as Array<keyof typeof APPLY>).map((event) => [state, event] as const));

  it.each(pairs)("%s + %s", async (state: LinkStatus, event) => {
    h = await harness();
    await h.store.write(async (tx) => await tx.links.insert(linkRow({ id: ID, createdAtMs: T0, status: state })));
    h.clock.set(NOW);
    await APPLY[event]();
    const next = expectedLinkStatus(state, event);
    const row = (await h.store.q.links.get(ID))!;
    expect(row.status).toBe(next ?? state);
    // The webhook of 3.1's "also happens" column exactly when the row moved.
    const type = WEBHOOK_OF[event];
    if (type) expect(await outbox(h, type)).toHaveLength(next === null ? 0 : 1);
    expect((await outbox(h)).every((r) => r.type === type)).toBe(true);
  });
});

describe("product 7: opens stamp firstOpenedAt / lastOpenedAt", () => {
  it("the first open sets both; later opens move lastOpenedAt only, in any open state", async () => {
    h = await harness();
    const link = await newLink(h);
    const open = (atMs: number) => h.store.write(async (tx) => await markOpened(tx, h.deps, link.id, atMs));
    expect(await open(T0 + 1000)).toMatchObject({
      moved: true,
      link: { status: "launched", firstOpenedAtMs: T0 + 1000, lastOpenedAtMs: T0 + 1000 },
    });
    expect(await open(T0 + 2000)).toMatchObject({
      moved: false,
      link: { status: "launched", firstOpenedAtMs: T0 + 1000, lastOpenedAtMs: T0 + 2000 },
    });
    await h.store.write(async (tx) => await markAttemptStarted(tx, h.deps, link.id, T0 + 3000));
    expect(await open(T0 + 4000)).toMatchObject({ link: { status: "initiated", lastOpenedAtMs: T0 + 4000, updatedAtMs: T0 + 4000 } });
    h.clock.set(T0 + 5000);
    const json = (await h.get(`/v1/payment-links/${link.id}`)).json;
    expect(json).toMatchObject({ firstOpenedAt: new Date(T0 + 1000).toISOString(), lastOpenedAt: new Date(T0 + 4000).toISOString() });
  });

  it("an open of a terminal link changes nothing", async () => {
    h = await harness();
    const link = await newLink(h);
    await h.del(`/v1/payment-links/${link.id}`);
    const r = await h.store.write(async (tx) => await markOpened(tx, h.deps, link.id, T0 + 1000));
    expect(r).toMatchObject({ moved: false, link: { status: "cancelled", firstOpenedAtMs: null, lastOpenedAtMs: null } });
  });

  it("an open at expiresAt finds the link expired (product 16)", async () => {
    h = await harness();
    const link = await newLink(h);
    const r = await h.store.write(async (tx) => await markOpened(tx, h.deps, link.id, T0 + LINK_VALIDITY_MS));
    expect(r).toMatchObject({ moved: false, link: { status: "expired" } });
    expect(await outbox(h, "payment_link.expired")).toHaveLength(1);
  });
});

describe("interface 3.1 link payments: attempts and completion", () => {
  it("launched -> initiated -> failed -> initiated -> completed, payment_link.completed queued once", async () => {
    h = await harness();
    const link = await newLink(h);
    const step = (fn: typeof markOpened, atMs: number) => h.store.write(async (tx) => (await fn(tx, h.deps, link.id, atMs)).link.status);
    expect(await step(markOpened, T0 + 1)).toBe("launched");
    expect(await step(markAttemptStarted, T0 + 2)).toBe("initiated");
    expect(await step(markAttemptFailed, T0 + 3)).toBe("failed");
    expect(await step(markAttemptStarted, T0 + 4)).toBe("initiated");
    expect(await step(markCompleted, T0 + 5)).toBe("completed");
    expect(await step(markCompleted, T0 + 6)).toBe("completed");
    expect((await outbox(h, "payment_link.completed")).map((r) => r.json)).toEqual([
      { id: expect.any(String), type: "payment_link.completed", occurredAt: new Date(T0 + 5).toISOString(), paymentLinkId: link.id },
    ]);
  });

  it("a completion after a cancel does not move the link (the payments side must handle the capture)", async () => {
    h = await harness();
    const link = await newLink(h);
    await h.store.write(async (tx) => await markOpened(tx, h.deps, link.id, T0));
    await h.del(`/v1/payment-links/${link.id}`);
    const r = await h.store.write(async (tx) => await markCompleted(tx, h.deps, link.id, T0 + 1));
    expect(r).toMatchObject({ moved: false, link: { status: "cancelled" } });
    expect(await outbox(h, "payment_link.completed")).toHaveLength(0);
  });

  it("attempt numbers for PL-<id>-<n> count up per link (product 5)", async () => {
    h = await harness();
    const link = await newLink(h);
    const n = await h.store.write(async (tx) => [await tx.links.nextAttemptSeq(link.id), await tx.links.nextAttemptSeq(link.id)]);
    expect(n).toEqual([1, 2]);
  });
});

describe("product 7: the hosted pages find a link by its token", () => {
  it("getLinkByToken answers the row; an unknown or id-shaped token answers undefined", async () => {
    h = await harness();
    const link = await newLink(h);
    expect((await getLinkByToken(h.store.q, link.token))?.id).toBe(link.id);
    expect(await getLinkByToken(h.store.q, link.id)).toBeUndefined();
    expect(await getLinkByToken(h.store.q, "nope")).toBeUndefined();
  });
});
