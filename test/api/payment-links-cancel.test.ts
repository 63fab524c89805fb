import { afterEach, describe, expect, it } from "vitest";
import { harness, T0, type Harness } from "../support/harness";
import { patchUnits } from "../support/unit-patch";
import { OTHER_KEY } from "../support/fixtures";
import { LINK_TRANSITIONS } from "../../src/domain/payment-links/machine";
import { LINK_VALIDITY_MS, MINUTE_MS } from "../../src/limits";
import { linkRow, newLink, outbox } from "../unit/payment-links/fixtures";
import type { LinkStatus } from "../../src/store/rows";

let h: Harness;
afterEach(async () => h?.close());

const iso = (ms: number) => new Date(ms).toISOString();

/** A link of ptn_test stored directly in `status`, created at T0. */
async function linkIn(status: LinkStatus, id = "pl_direct") {
  await h.store.write(async (tx) => await tx.links.insert(linkRow({ id, createdAtMs: T0, status })));
  return id;
}

describe("interface 4.3 get payment link", () => {
  it("answers the caller's link as created", async () => {
    h = await harness();
    const link = await newLink(h, { description: "x" });
    const r = await h.get(`/v1/payment-links/${link.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual(link);
  });

  it.each([
    ["an unknown id", "pl_00000000000000000000", undefined],
    ["the token instead of the id", "TOKEN", undefined],
    ["another partner's link", "ID", OTHER_KEY],
  ])("%s is 404 payment_link_not_found", async (_name, which, key) => {
    h = await harness();
    const link = await newLink(h);
    const id = which === "TOKEN" ? link.token : which === "ID" ? link.id : which;
    const r = await h.get(`/v1/payment-links/${id}`, { key });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe("payment_link_not_found");
  });

  it("a link at its expiresAt reads as expired even before the wheel ran (product 16)", async () => {
    h = await harness();
    const link = await newLink(h);
    h.clock.set(T0 + LINK_VALIDITY_MS); // no timers run
    const r = await h.get(`/v1/payment-links/${link.id}`);
    expect(r.json).toMatchObject({ status: "expired", updatedAt: link.expiresAt });
    expect(await outbox(h, "payment_link.expired")).toHaveLength(1);
    await h.get(`/v1/payment-links/${link.id}`);
    await h.advance(0);
    expect(await outbox(h, "payment_link.expired")).toHaveLength(1);
  });
});

describe("interface 4.4 / 3.1 cancel payment link", () => {
  it.each(LINK_TRANSITIONS.cancel.from.map((s) => [s]))("%s -> cancelled: 200 with the updated record", async (status) => {
    h = await harness();
    const id = await linkIn(status);
    await h.advance(MINUTE_MS);
    const r = await h.del(`/v1/payment-links/${id}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id, status: "cancelled", updatedAt: iso(T0 + MINUTE_MS), createdAt: iso(T0) });
    expect((await h.get(`/v1/payment-links/${id}`)).json).toEqual(r.json);
  });

  it.each([
    ["completed", "payment_link_already_paid"],
    ["expired", "payment_link_expired"],
    ["cancelled", "payment_link_cancelled"],
  ] as const)("%s: 409 %s, record unchanged", async (status, code) => {
    h = await harness();
    const id = await linkIn(status);
    const before = (await h.get(`/v1/payment-links/${id}`)).json;
    const r = await h.del(`/v1/payment-links/${id}`);
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe(code);
    expect((await h.get(`/v1/payment-links/${id}`)).json).toEqual(before);
  });

  it("cancelling twice: the second answers 409 payment_link_cancelled", async () => {
    h = await harness();
    const link = await newLink(h);
    expect((await h.del(`/v1/payment-links/${link.id}`)).status).toBe(200);
    expect((await h.del(`/v1/payment-links/${link.id}`)).json.error.code).toBe("payment_link_cancelled");
  });

  it.each([
    ["an unknown id", "pl_nope", undefined],
    ["another partner's link", "ID", OTHER_KEY],
  ])("%s is 404 payment_link_not_found and changes nothing", async (_name, which, key) => {
    h = await harness();
    const link = await newLink(h);
    const r = await h.del(`/v1/payment-links/${which === "ID" ? link.id : which}`, { key });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe("payment_link_not_found");
    expect((await h.get(`/v1/payment-links/${link.id}`)).json.status).toBe("pending");
  });

  it("a cancelled link is not expired later, and sends no payment_link.expired", async () => {
    h = await harness();
    const link = await newLink(h);
    await h.del(`/v1/payment-links/${link.id}`);
    await h.advance(LINK_VALIDITY_MS + MINUTE_MS);
    expect((await h.get(`/v1/payment-links/${link.id}`)).json.status).toBe("cancelled");
    expect(await outbox(h, "payment_link.expired")).toHaveLength(0);
  });
});

describe("interface 3.1 cancel at or past expiresAt before the wheel ran (product 16)", () => {
  it("the link is expired in the same unit, payment_link.expired queued once, and the cancel is 409 payment_link_expired", async () => {
    h = await harness();
    const link = await newLink(h);
    h.clock.set(T0 + LINK_VALIDITY_MS); // exactly expiresAt; no timers run
    const r = await h.del(`/v1/payment-links/${link.id}`);
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe("payment_link_expired");
    expect(await h.store.q.links.get(link.id)).toMatchObject({ status: "expired", updatedAtMs: T0 + LINK_VALIDITY_MS });
    const rows = await outbox(h, "payment_link.expired");
    expect(rows.map((x) => x.json)).toEqual([
      { id: expect.any(String), type: "payment_link.expired", occurredAt: link.expiresAt, paymentLinkId: link.id },
    ]);
    // The wheel's own timer then finds nothing to do.
    await h.advance(0);
    expect(await outbox(h, "payment_link.expired")).toHaveLength(1);
  });

  it("one millisecond before expiresAt the cancel still succeeds", async () => {
    h = await harness();
    const link = await newLink(h);
    h.clock.set(T0 + LINK_VALIDITY_MS - 1);
    expect((await h.del(`/v1/payment-links/${link.id}`)).json.status).toBe("cancelled");
  });
});

describe("interface 3.1 / 7.2 a cancel racing a completing payment", () => {
  it("a completion committed first makes the cancel 409 payment_link_already_paid", async () => {
    h = await harness();
    const link = await newLink(h);
    await h.store.write(async (tx) => await tx.links.markLaunched(link.id, ["pending"], T0));
    void h.store.write(async (tx) => await tx.links.markCompleted(link.id, LINK_TRANSITIONS.complete.from, T0));
    const r = await h.del(`/v1/payment-links/${link.id}`);
    expect(r.json.error.code).toBe("payment_link_already_paid");
  });

  it("a completion landing between the read and the conditional update also answers payment_link_already_paid", async () => {
    h = await harness();
    const link = await newLink(h);
    const restore = patchUnits(h.store, (tx) => ({
      links: {
        ...tx.links,
        async markCancelled(id, from, atMs) {
          // The competing completion wins the row just before the cancel's UPDATE runs.
          await tx.links.markCompleted(id, ["pending"], atMs);
          return await tx.links.markCancelled(id, from, atMs);
        },
      },
    }));
    const r = await h.del(`/v1/payment-links/${link.id}`);
    restore();
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe("payment_link_already_paid");
    expect((await h.store.q.links.get(link.id))?.status).toBe("completed");
  });
});
