import { afterEach, describe, expect, it } from "vitest";
import type { LinkListFilter, LinkRow } from "../../src/store/rows";
import type { LinksOps } from "../../src/store/links-ops";
import { linksPg } from "../../src/store/postgres/links-pg";
import { bothStores, type Both } from "./differential";
import { partnersPg, partnersSqlite, terminalPg, terminalSqlite } from "./links-world";

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

const T1 = { id: "t1", partnerId: "p1", connectionId: "c1", bank: "akbank" };
const T2 = { id: "t2", partnerId: "p2", connectionId: "c1", bank: "akbank" };

const link = (id: string, ref: number, over: Partial<LinkRow> = {}): LinkRow => ({
  id,
  partnerId: "p1",
  token: `tok-${id}`,
  partnerReference: ref,
  terminalId: "t1",
  status: "pending",
  amount: 1000 * ref,
  shareBps: 0,
  description: null,
  redirectUrl: null,
  allowedCounts: null,
  items: null,
  payerName: null,
  attemptSeq: 0,
  firstOpenedAtMs: null,
  lastOpenedAtMs: null,
  expiresAtMs: 50_000 + ref,
  createdAtMs: 10_000,
  updatedAtMs: 10_000,
  ...over,
});

// Ties on created_at_ms (l1..l3) so the partner_reference tie-break is exercised; l4 has every JSON
// column; l5 is another partner's; l6 is closed (not open) though expired.
const LINKS: LinkRow[] = [
  link("l1", 1),
  link("l2", 2),
  link("l3", 3, { status: "launched" }),
  link("l4", 4, {
    createdAtMs: 20_000,
    updatedAtMs: 20_000,
    description: "dört",
    redirectUrl: "https://shop.example/back",
    allowedCounts: [1, 3, 6],
    items: [{ name: "kalem", note: null, amount: 4000 }],
    payerName: "Ayşe",
    expiresAtMs: 30_000,
  }),
  link("l5", 1, { partnerId: "p2", terminalId: "t2", createdAtMs: 15_000, expiresAtMs: 10_000 }),
  link("l6", 5, { status: "completed", createdAtMs: 5_000, expiresAtMs: 1_000 }),
];

const F: LinkListFilter = {
  partnerId: "p1",
  statuses: null,
  minAmount: null,
  maxAmount: null,
  createdFromMs: null,
  createdToMs: null,
  limit: 50,
  offset: 0,
};

const FILTERS: LinkListFilter[] = [
  F,
  { ...F, partnerId: "p2" },
  { ...F, partnerId: "nobody" },
  { ...F, statuses: ["pending"] },
  { ...F, statuses: ["launched", "completed"] },
  { ...F, statuses: [] },
  { ...F, minAmount: 2000 },
  { ...F, maxAmount: 3000 },
  { ...F, minAmount: 2000, maxAmount: 3000 },
  { ...F, createdFromMs: 10_000 },
  { ...F, createdToMs: 10_000 },
  { ...F, createdFromMs: 10_000, createdToMs: 20_000, statuses: ["pending", "launched"] },
  { ...F, limit: 2 },
  { ...F, limit: 2, offset: 2 },
  { ...F, limit: 2, offset: 4 },
  { ...F, limit: 2, offset: 10 },
];

async function seedSqlite(both: Both) {
  await both.sqlite(async (tx) => {
    await partnersSqlite(tx, ["p1", "p2"]);
    await terminalSqlite(tx, T1);
    await terminalSqlite(tx, T2);
    for (const l of LINKS) await tx.links.insert(l);
  });
}

async function seedPg(both: Both) {
  await both.pg(async (sql) => {
    await partnersPg(sql, ["p1", "p2"]);
    await terminalPg(sql, T1);
    await terminalPg(sql, T2);
    for (const l of LINKS) await linksPg(sql).insert(l);
  });
}

async function run<T>(b: Both, steps: (ops: LinksOps) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  await seedSqlite(b);
  await seedPg(b);
  return { sqlite: await b.sqlite((tx) => steps(tx.links)), pg: await b.pg((sql) => steps(linksPg(sql))) };
}

describe("issue 23: links operations answer on PostgreSQL as on SQLite", () => {
  it("insert, get, getOwned, byToken (JSON columns parsed, absent rows undefined)", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (l) => [
      await l.get("l4"),
      await l.get("l1"),
      await l.get("missing"),
      await l.getOwned("p1", "l4"),
      await l.getOwned("p2", "l4"),
      await l.getOwned("p1", "missing"),
      await l.byToken("tok-l5"),
      await l.byToken("nope"),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual(LINKS[3]);
    expect(sqlite[2]).toBeUndefined();
    expect(sqlite[4]).toBeUndefined();
  });

  it("list: every filter, the order with its tie-break, limit and offset", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (l) => {
      const out: string[][] = [];
      for (const f of FILTERS) out.push((await l.list(f)).map((r) => r.id));
      const full = await l.list(F);
      return { ids: out, full };
    });
    expect(pg).toEqual(sqlite);
    expect(sqlite.ids[0]).toEqual(["l4", "l3", "l2", "l1", "l6"]);
    expect(sqlite.ids[5]).toEqual([]);
    expect(sqlite.ids[13]).toEqual(["l2", "l1"]);
    expect(sqlite.full[0]).toEqual(LINKS[3]);
  });

  it("openExpiries, dueForExpiry and dueExpiries (product 22's poll)", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (l) => [
      await l.openExpiries(),
      await l.dueExpiries(30_000, 10),
      await l.dueExpiries(50_002, 2),
      await l.dueExpiries(9_999, 10),
      await l.dueForExpiry("p1", 30_000, 10),
      await l.dueForExpiry("p1", 50_002, 10),
      await l.dueForExpiry("p1", 50_002, 1),
      await l.dueForExpiry("p2", 10_000, 10),
      await l.dueForExpiry("p2", 9_999, 10),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual([
      { id: "l5", expiresAtMs: 10_000 },
      { id: "l4", expiresAtMs: 30_000 },
      { id: "l1", expiresAtMs: 50_001 },
      { id: "l2", expiresAtMs: 50_002 },
      { id: "l3", expiresAtMs: 50_003 },
    ]);
    expect(sqlite[1]).toEqual([
      { id: "l5", expiresAtMs: 10_000 },
      { id: "l4", expiresAtMs: 30_000 },
    ]);
    expect(sqlite[2]).toEqual(sqlite[1]);
    expect(sqlite[3]).toEqual([]);
    expect(sqlite[5]).toEqual(["l4", "l1", "l2"]);
  });

  it("status moves: conditional on `from`, stamping their instants; nextAttemptSeq", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (l) => [
      await l.markLaunched("l1", ["pending"], 11_000),
      await l.markLaunched("l1", ["pending"], 11_500),
      await l.touchOpened("l1", ["launched"], 12_000),
      await l.touchOpened("l2", ["launched"], 12_000),
      await l.touchOpened("l2", [], 12_000),
      await l.markInitiated("l1", ["launched", "failed"], 13_000),
      await l.markFailed("l1", ["initiated"], 14_000),
      await l.markInitiated("l1", ["launched", "failed"], 15_000),
      await l.markCompleted("l1", ["initiated"], 16_000),
      await l.markExpired("l2", ["pending", "launched"], 17_000),
      await l.markCancelled("l3", ["pending", "launched"], 18_000),
      await l.markCancelled("l3", ["pending", "launched"], 19_000),
      await l.markExpired("missing", ["pending"], 17_000),
      await l.nextAttemptSeq("l4"),
      await l.nextAttemptSeq("l4"),
      await l.nextAttemptSeq("missing"),
      await l.get("l1"),
      await l.get("l2"),
      await l.get("l3"),
      await l.get("l4"),
      await l.openExpiries(),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite.slice(0, 16)).toEqual([true, false, true, false, false, true, true, true, true, true, true, false, false, 1, 2, 0]);
    expect(sqlite[16]).toMatchObject({ status: "completed", firstOpenedAtMs: 11_000, lastOpenedAtMs: 12_000, updatedAtMs: 16_000 });
  });
});
