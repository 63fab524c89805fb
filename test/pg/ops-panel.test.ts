import { afterEach, describe, expect, it } from "vitest";
import type { PaymentPageFilter } from "../../src/store/rows-money";
import type { PanelOps } from "../../src/store/panel-ops";
import { panelPg } from "../../src/store/postgres/panel-pg";
import { bothStores, type Both } from "./differential";
import { BIG, seedMoney } from "./money-world";

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

const P1: PaymentPageFilter = { partnerId: "p1", status: null, fromMs: null, toMs: null, search: null, before: null, limit: 50 };

// P1 and P5 share an instant (9 000): the code breaks the tie, in the order and in the cursor.
const FILTERS: PaymentPageFilter[] = [
  P1,
  { ...P1, partnerId: "p2" },
  { ...P1, limit: 2 },
  { ...P1, before: { atMs: 14_000, code: "P6" } },
  { ...P1, before: { atMs: 9_000, code: "P5" } },
  { ...P1, before: { atMs: 9_000, code: "P1" } },
  { ...P1, status: "initiated" },
  { ...P1, fromMs: 9_000, toMs: 19_000 },
  { ...P1, search: "P2" },
  { ...P1, search: "tx-P4" },
  { ...P1, search: "P3" },
  { ...P1, status: "captured", fromMs: 10_000, before: { atMs: 89_000, code: "P4" }, limit: 1 },
];

async function run<T>(b: Both, steps: (ops: PanelOps) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  await seedMoney(b);
  return { sqlite: await b.sqlite((tx) => steps(tx.panel)), pg: await b.pg((sql) => steps(panelPg(sql))) };
}

describe("issue 23: panel operations answer on PostgreSQL as on SQLite", () => {
  it("payments: keyset pages and every filter", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (p) => {
      const out: unknown[] = [];
      for (const f of FILTERS) out.push(await p.payments(f));
      return out;
    });
    expect(pg).toEqual(sqlite);
    expect((sqlite[0] as { code: string }[]).map((r) => r.code)).toEqual(["P4", "P2", "P6", "P5", "P1"]);
    expect((sqlite[4] as { code: string }[]).map((r) => r.code)).toEqual(["P1"]);
  });

  it("captured: count and sum in a window, bounded by creation", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (p) => [
      await p.captured("p1", 0, 100_000, 0),
      await p.captured("p1", 10_000, 20_000, 0),
      await p.captured("p1", 0, 100_000, 10_000),
      await p.captured("p2", 0, 10_000, 0),
      await p.captured("nobody", 0, 100_000, 0),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual({ count: 4, sum: BIG + 30_000 });
    expect(sqlite[3]).toEqual({ count: 0, sum: 0 });
  });
});
