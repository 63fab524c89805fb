import { afterEach, describe, expect, it } from "vitest";
import { harness, T0, type Harness } from "../support/harness";
import { OTHER_KEY } from "../support/fixtures";
import { SECOND_MS } from "../../src/limits";
import { linkRow, newLink } from "../unit/payment-links/fixtures";
import type { LinkStatus } from "../../src/store/rows";

let h: Harness;
afterEach(async () => h?.close());

const iso = (ms: number) => new Date(ms).toISOString();
const list = async (query = "") => h.get(`/v1/payment-links${query}`);
const refs = (r: { json: { items: Array<{ partnerReference: number }> } }) => r.json.items.map((l) => l.partnerReference);

/** Links 1..n of ptn_test, one per second from T0, amount 100 * ref, statuses cycling through `statuses`. */
async function seed(n: number, statuses: LinkStatus[] = ["pending"]) {
  await h.store.write(async (tx) => {
    for (let ref = 1; ref <= n; ref++) {
      const createdAtMs = T0 + (ref - 1) * SECOND_MS;
      await tx.links.insert(
        linkRow({
          id: `pl_${String(ref).padStart(6, "0")}`,
          partnerReference: ref,
          createdAtMs,
          amount: 100 * ref,
          status: statuses[(ref - 1) % statuses.length]!,
        }),
      );
    }
  });
}

describe("interface 4.2 list payment links: envelope and order", () => {
  it("an empty account lists nothing with the defaults echoed", async () => {
    h = await harness();
    expect((await list()).json).toEqual({ items: [], page: 0, size: 20, hasMore: false });
  });

  it("items are 2.1 objects, newest first, partnerReference breaking ties (product 16)", async () => {
    h = await harness();
    const a = await newLink(h);
    const b = await newLink(h); // same instant as a
    await h.advance(SECOND_MS);
    const c = await newLink(h);
    const r = await list();
    expect(r.status).toBe(200);
    expect(r.json.items).toEqual([c, b, a]);
  });

  it("is scoped to the caller's account", async () => {
    h = await harness();
    await newLink(h);
    await newLink(h, { terminalId: "T-OTHER" }, { key: OTHER_KEY });
    expect((await list()).json.items).toHaveLength(1);
    expect((await h.get("/v1/payment-links", { key: OTHER_KEY })).json.items).toHaveLength(1);
  });

  it("parameters the endpoint does not know are ignored", async () => {
    h = await harness();
    await seed(2);
    expect(refs(await list("?utm_source=x&foo"))).toEqual([2, 1]);
  });
});

describe("interface 4.2 filters", () => {
  it("status may repeat; links in any listed status match", async () => {
    h = await harness();
    await seed(7, ["pending", "launched", "initiated", "completed", "expired", "failed", "cancelled"]);
    expect(refs(await list("?status=pending"))).toEqual([1]);
    expect(refs(await list("?status=completed&status=cancelled&status=completed"))).toEqual([7, 4]);
  });

  it.each(["paid", "", "PENDING", "pending,launched"])("status=%j is 400 validation_error", async (value) => {
    h = await harness();
    const r = await list(`?status=pending&status=${encodeURIComponent(value)}`);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: "validation_error", message: expect.stringMatching(/^status: /) });
  });

  it("minAmount and maxAmount are inclusive (product 16)", async () => {
    h = await harness();
    await seed(5); // amounts 100..500
    expect(refs(await list("?minAmount=200&maxAmount=400"))).toEqual([4, 3, 2]);
    expect(refs(await list("?minAmount=500"))).toEqual([5]);
    expect(refs(await list("?maxAmount=100"))).toEqual([1]);
    expect(refs(await list("?minAmount=401&maxAmount=499"))).toEqual([]);
  });

  it.each(["minAmount=1.5", "maxAmount=abc", "minAmount=", "maxAmount=1e3", "minAmount=99999999999999999999", "minAmount=1&minAmount=2"])(
    "%s is 400 validation_error",
    async (query) => {
      h = await harness();
      const r = await list(`?${query}`);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe("validation_error");
    },
  );

  it("createdFrom is inclusive and createdTo exclusive (product 16)", async () => {
    h = await harness();
    await seed(5); // created T0, T0+1s, ... T0+4s
    const at = (ref: number) => encodeURIComponent(iso(T0 + (ref - 1) * SECOND_MS));
    expect(refs(await list(`?createdFrom=${at(2)}&createdTo=${at(4)}`))).toEqual([3, 2]);
    expect(refs(await list(`?createdFrom=${at(5)}`))).toEqual([5]);
    expect(refs(await list(`?createdTo=${at(1)}`))).toEqual([]);
  });

  it("accepts an offset, and an unencoded + arriving as a space", async () => {
    h = await harness();
    await seed(3);
    // T0 + 1 s is 12:00:01 in Istanbul (UTC+3).
    expect(refs(await list(`?createdFrom=${encodeURIComponent("2026-11-20T12:00:01+03:00")}`))).toEqual([3, 2]);
    expect(refs(await list("?createdFrom=2026-11-20T12:00:01+03:00"))).toEqual([3, 2]);
  });

  it.each(["yesterday", "2026-11-20", "2026-11-20T09:00:00", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-20T24:00:00Z", ""])(
    "createdFrom=%j is 400 validation_error",
    async (value) => {
      h = await harness();
      const r = await list(`?createdFrom=${encodeURIComponent(value)}`);
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: "validation_error", message: expect.stringMatching(/^createdFrom: /) });
    },
  );

  it("filters combine", async () => {
    h = await harness();
    await seed(10, ["pending", "expired"]);
    const r = await list(`?status=expired&minAmount=300&createdTo=${encodeURIComponent(iso(T0 + 8 * SECOND_MS))}`);
    expect(refs(r)).toEqual([8, 6, 4]);
  });
});

describe("interface 4.2 / 8 paging: silent clamping, the 100000 horizon, hasMore (product 16)", () => {
  it.each([
    ["page=-3", 0, 20],
    ["size=0", 0, 1],
    ["size=-5", 0, 1],
    ["size=201", 0, 200],
    ["size=99999999999999999999999", 0, 200],
    ["page=2&size=3", 2, 3],
    ["page=%2B1", 1, 20],
  ])("%s applies page %d, size %d and echoes them", async (query, page, size) => {
    h = await harness();
    const r = await list(`?${query}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ page, size });
  });

  it.each(["page=abc", "size=ten", "page=1.5", "size=", "page=1&page=2"])("%s (not an integer) is 400", async (query) => {
    h = await harness();
    const r = await list(`?${query}`);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("validation_error");
  });

  it.each([
    ["page=500&size=200", 200],
    ["page=100000&size=1", 200],
    ["page=100000&size=0", 200], // size applied as 1
    ["page=501&size=200", 400],
    ["page=100001&size=1", 400],
    ["page=5001", 400], // default size 20
    ["page=99999999999999999999999", 400],
  ])("%s: page * size on the applied values must be <= 100000 -> %d", async (query, status) => {
    h = await harness();
    const r = await list(`?${query}`);
    expect(r.status).toBe(status);
    if (status === 400) expect(r.json.error.message).toBe("page: page * size must be <= 100000");
  });

  it("pages walk the order; hasMore is true on a full page, with no look-ahead", async () => {
    h = await harness();
    await seed(7);
    expect((await list("?size=3")).json).toMatchObject({ page: 0, size: 3, hasMore: true });
    expect(refs(await list("?size=3"))).toEqual([7, 6, 5]);
    expect(refs(await list("?size=3&page=1"))).toEqual([4, 3, 2]);
    const last = await list("?size=3&page=2");
    expect(refs(last)).toEqual([1]);
    expect(last.json.hasMore).toBe(false);
    // A full last page still says true (product 16: no look-ahead).
    expect((await list("?size=7")).json.hasMore).toBe(true);
    expect((await list("?size=8")).json.hasMore).toBe(false);
    expect((await list("?size=3&page=3")).json).toMatchObject({ items: [], hasMore: false });
  });
});
