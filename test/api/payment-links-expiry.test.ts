import { afterEach, describe, expect, it } from "vitest";
import { harness, pendingTimers, T0, type Harness } from "../support/harness";
import { OTHER_KEY } from "../support/fixtures";
import { LINK_EXPIRY_TIMER, linkExpiryTimer } from "../../src/domain/payment-links/expiry";
import { markCompleted, markOpened } from "../../src/domain/payment-links/service";
import { LINK_VALIDITY_MS, MINUTE_MS, SECOND_MS } from "../../src/limits";
import { createService } from "../../src/compose";
import { linkRow, newLink, outbox } from "../unit/payment-links/fixtures";

let h: Harness;
afterEach(async () => h?.close());

const EXPIRES_AT = T0 + LINK_VALIDITY_MS;

describe("interface 3.1 / 8 expiry by the timer wheel at exactly expiresAt (product 16)", () => {
  it("pending at expiresAt - 1 ms; expired at expiresAt, with payment_link.expired in the outbox", async () => {
    h = await harness();
    const link = await newLink(h);
    expect(link.expiresAt).toBe(new Date(EXPIRES_AT).toISOString());
    await h.advance(LINK_VALIDITY_MS - 1);
    // Read the row itself, so the read-side expiry of get/list cannot be what moved it.
    expect((await h.store.q.links.get(link.id))?.status).toBe("pending");
    expect(await outbox(h, "payment_link.expired")).toHaveLength(0);
    await h.advance(1);
    expect(await h.store.q.links.get(link.id)).toMatchObject({ status: "expired", updatedAtMs: EXPIRES_AT });
    const rows = await outbox(h, "payment_link.expired");
    expect(rows.map((r) => r.json)).toEqual([
      { id: expect.stringMatching(/^evt_/), type: "payment_link.expired", occurredAt: link.expiresAt, paymentLinkId: link.id },
    ]);
    expect((await h.get(`/v1/payment-links/${link.id}`)).json).toMatchObject({ status: "expired", updatedAt: link.expiresAt });
    expect(h.log.lines.filter((l) => l.includes("timer failed"))).toEqual([]);
  });

  it.each(["launched", "initiated", "failed"] as const)("a %s link expires too (any non-terminal state)", async (status) => {
    h = await harness();
    await h.store.write(async (tx) => await tx.links.insert(linkRow({ id: "pl_x", createdAtMs: T0, status })));
    h.deps.timers.schedule(LINK_EXPIRY_TIMER, "pl_x", EXPIRES_AT);
    await h.advance(LINK_VALIDITY_MS);
    expect((await h.store.q.links.get("pl_x"))?.status).toBe("expired");
    expect(await outbox(h, "payment_link.expired")).toHaveLength(1);
  });

  it("a completed link is left alone by its timer", async () => {
    h = await harness();
    const link = await newLink(h);
    await h.store.write(async (tx) => {
      await markOpened(tx, h.deps, link.id, T0);
      await markCompleted(tx, h.deps, link.id, T0);
    });
    await h.advance(LINK_VALIDITY_MS + MINUTE_MS);
    expect((await h.store.q.links.get(link.id))?.status).toBe("completed");
    expect(await outbox(h, "payment_link.expired")).toHaveLength(0);
  });

  it("without a webhook URL the link expires and nothing is queued (interface 6)", async () => {
    h = await harness();
    const link = await newLink(h, { terminalId: "T-OTHER" }, { key: OTHER_KEY });
    await h.advance(LINK_VALIDITY_MS);
    expect((await h.store.q.links.get(link.id))?.status).toBe("expired");
    expect(await outbox(h)).toHaveLength(0);
  });

  it("the handler never acts early and is idempotent (at-least-once timers)", async () => {
    h = await harness();
    const link = await newLink(h);
    const fire = linkExpiryTimer.handler(h.deps);
    h.clock.set(EXPIRES_AT - 1);
    await fire(link.id, EXPIRES_AT - 1000); // a stale, too-early timer
    expect((await h.store.q.links.get(link.id))?.status).toBe("pending");
    h.clock.set(EXPIRES_AT);
    await fire(link.id, EXPIRES_AT);
    await fire(link.id, EXPIRES_AT);
    await fire("pl_unknown", EXPIRES_AT);
    expect((await h.store.q.links.get(link.id))?.status).toBe("expired");
    expect(await outbox(h, "payment_link.expired")).toHaveLength(1);
  });

  it("a list at expiresAt shows the link expired before the wheel ran, and filters by that status", async () => {
    h = await harness();
    const link = await newLink(h);
    h.clock.set(EXPIRES_AT);
    expect((await h.get("/v1/payment-links?status=pending")).json.items).toEqual([]);
    expect((await h.get("/v1/payment-links?status=expired")).json.items.map((l: { id: string }) => l.id)).toEqual([link.id]);
    expect(await outbox(h, "payment_link.expired")).toHaveLength(1);
  });
});

describe("timer module link-expiry: rebuilt from the database at start (DESIGN.md request flow 6)", () => {
  it("pending() lists the open links at their expiresAt, not the terminal ones", async () => {
    h = await harness();
    const a = await newLink(h);
    await h.advance(SECOND_MS);
    const b = await newLink(h);
    const c = await newLink(h);
    await h.del(`/v1/payment-links/${c.id}`);
    expect(await pendingTimers(linkExpiryTimer, h.deps)).toEqual([
      { key: a.id, dueAtMs: EXPIRES_AT },
      { key: b.id, dueAtMs: EXPIRES_AT + SECOND_MS },
    ]);
  });

  it("a restarted runtime on the same database expires the links on time", async () => {
    h = await harness();
    const link = await newLink(h);
    await h.runtime.stop();
    const restarted = await createService({
      store: h.store,
      clock: h.clock,
      config: h.deps.config,
      log: h.log,
      rateLimiter: h.deps.rateLimiter,
    });
    h.clock.set(EXPIRES_AT - 1);
    await restarted.deps.timers.runDue();
    expect((await h.store.q.links.get(link.id))?.status).toBe("pending");
    h.clock.set(EXPIRES_AT);
    await restarted.deps.timers.runDue();
    expect((await h.store.q.links.get(link.id))?.status).toBe("expired");
    await restarted.stop();
  });
});

describe("product 13 sandbox clock: a link expires at expiresAt when the clock is moved", () => {
  it("moving to expiresAt - 1 ms keeps it pending; moving to expiresAt expires it", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    const link = await newLink(h);
    const move = (to: number) => h.post("/sandbox/clock", { to: new Date(to).toISOString() });
    expect((await move(EXPIRES_AT - 1)).status).toBe(200);
    expect((await h.store.q.links.get(link.id))?.status).toBe("pending");
    expect((await move(EXPIRES_AT)).json.now).toBe(link.expiresAt);
    expect((await h.store.q.links.get(link.id))?.status).toBe("expired");
    expect(await outbox(h, "payment_link.expired")).toHaveLength(1);
  });
});
