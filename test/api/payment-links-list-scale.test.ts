import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harness, T0, type Harness } from "../support/harness";
import { OTHER_KEY } from "../support/fixtures";
import { LINK_STATUSES } from "../../src/domain/payment-links/machine";
import { LIST_HORIZON, SECOND_MS } from "../../src/limits";
import { linkRow } from "../unit/payment-links/fixtures";
import type { LinkListFilter } from "../../src/store/rows";

// interface 4.2 / issue 5: the list stays indexed and fast with 100k links of one account. The
// seed is expensive, so this file shares one harness across its tests.

const LINKS = LIST_HORIZON + 5;
const OTHER_LINKS = 2_000;
let h: Harness;

beforeAll(async () => {
  h = await harness();
  await h.store.write(async (tx) => {
    for (let i = 0; i < LINKS; i++) {
      await tx.links.insert(
        linkRow({
          id: `pl_${String(i).padStart(8, "0")}`,
          partnerReference: i + 1,
          // Three links per second, so ties on createdAt are common.
          createdAtMs: T0 + Math.floor(i / 3) * SECOND_MS,
          status: LINK_STATUSES[i % LINK_STATUSES.length]!,
          amount: 100 + (i % 1000),
        }),
      );
    }
    for (let i = 0; i < OTHER_LINKS; i++) {
      await tx.links.insert(
        linkRow({ id: `pl_other${i}`, partnerId: "ptn_other", terminalId: "T-OTHER", createdAtMs: T0 + i * SECOND_MS }),
      );
    }
  });
}, 60_000);
afterAll(async () => h?.close());

const at = (s: number) => T0 + s * SECOND_MS;
const BASE: LinkListFilter = {
  partnerId: "ptn_test",
  statuses: null,
  minAmount: null,
  maxAmount: null,
  createdFromMs: null,
  createdToMs: null,
  limit: 200,
  offset: 0,
};

// Every filter combination 4.2 allows, by kind of constraint.
const COMBOS: Array<[string, Partial<LinkListFilter>]> = [
  ["no filter", {}],
  ["one status", { statuses: ["pending"] }],
  ["several statuses", { statuses: ["pending", "expired", "failed"] }],
  ["every status", { statuses: [...LINK_STATUSES] }],
  ["minAmount", { minAmount: 500 }],
  ["maxAmount", { maxAmount: 105 }],
  ["amount range", { minAmount: 500, maxAmount: 501 }],
  ["createdFrom", { createdFromMs: at(10_000) }],
  ["createdTo", { createdToMs: at(10_000) }],
  ["created range", { createdFromMs: at(10_000), createdToMs: at(20_000) }],
  ["one status and created range", { statuses: ["completed"], createdFromMs: at(10_000), createdToMs: at(20_000) }],
  [
    "statuses, amounts and created range",
    { statuses: ["pending", "expired"], minAmount: 200, maxAmount: 800, createdFromMs: at(100), createdToMs: at(30_000) },
  ],
  ["deepest page", { offset: LIST_HORIZON - 200 }],
  ["deep page of a rare combination", { statuses: ["cancelled"], maxAmount: 110, offset: 1_000 }],
];

describe("interface 4.2 list at 100k links: indexed", () => {
  it.each(COMBOS)("%s: SQLite searches a links_by_partner* index in order, no scan, no sort", async (_name, over) => {
    const plans = await h.store.planOf(() => h.store.q.links.list({ ...BASE, ...over }));
    expect(plans).toHaveLength(1);
    const plan = plans[0]!.split(" | ");
    for (const step of plan) {
      expect(step).toMatch(/^SEARCH payment_links USING INDEX links_by_partner(_status)? \(partner_id=\?/);
      expect(step).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });

  it("the timer wheel's rebuild uses links_open_by_expiry", async () => {
    const [plan] = await h.store.planOf(() => h.store.q.links.openExpiries());
    expect(plan).toMatch(/USING INDEX links_open_by_expiry/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});

describe("interface 4.2 list at 100k links: fast and exact", () => {
  it("the read-side expiry probe costs nothing when nothing is due", async () => {
    const t = performance.now();
    for (let i = 0; i < 100; i++) expect(await h.store.q.links.dueForExpiry("ptn_test", T0, 500)).toEqual([]);
    expect(performance.now() - t).toBeLessThan(50);
  });

  it("every combination answers through the API well under a second", async () => {
    const queries = [
      "",
      "?status=pending",
      "?status=pending&status=expired&status=failed",
      "?minAmount=500&maxAmount=501",
      `?createdFrom=${new Date(at(10_000)).toISOString()}&createdTo=${new Date(at(20_000)).toISOString()}`,
      "?page=499&size=200",
      "?status=cancelled&maxAmount=110&page=10&size=100",
      "?page=33333&size=3",
    ];
    const started = performance.now();
    for (const query of queries) {
      const t = performance.now();
      const r = await h.get(`/v1/payment-links${query}`);
      expect(r.status, query).toBe(200);
      expect(performance.now() - t, query).toBeLessThan(1_000);
    }
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("the deepest full page before the horizon says hasMore; the next starts past the data", async () => {
    const deepest = await h.get("/v1/payment-links?page=499&size=200");
    expect(deepest.json).toMatchObject({ page: 499, size: 200, hasMore: true });
    expect(deepest.json.items).toHaveLength(200);
    // Oldest first from the end: the last item of page 499 is the 100000th newest.
    expect(deepest.json.items.at(-1).partnerReference).toBe(LINKS - LIST_HORIZON + 1);
    const after = await h.get("/v1/payment-links?page=500&size=200");
    expect(after.json).toMatchObject({ page: 500, size: 200, hasMore: false });
    expect(after.json.items).toHaveLength(LINKS - LIST_HORIZON);
  });

  it("a full page at the horizon says hasMore false (interface 4.2)", async () => {
    // page 33333 * size 3 = 99999 <= 100000, but the next page would start at 100002.
    const r = await h.get("/v1/payment-links?page=33333&size=3");
    expect(r.json.items).toHaveLength(3);
    expect(r.json.hasMore).toBe(false);
  });

  it("the other account sees only its own links", async () => {
    const r = await h.get("/v1/payment-links?size=200&page=9", { key: OTHER_KEY });
    expect(r.json.items).toHaveLength(200);
    expect(r.json.hasMore).toBe(true);
    expect((await h.get("/v1/payment-links?size=200&page=10", { key: OTHER_KEY })).json.items).toHaveLength(0);
  });
});
