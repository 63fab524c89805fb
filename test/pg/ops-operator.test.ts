import { afterEach, describe, expect, it } from "vitest";
import type { OperatorFilter } from "../../src/store/rows";
import type { Repos } from "../../src/store/store";
import type { OperatorOps } from "../../src/store/money-ops";
import { operatorPg } from "../../src/store/postgres/operator-pg";
import { settlementPg } from "../../src/store/postgres/settlement-pg";
import type { Pg } from "../../src/store/postgres/pg";
import { bothStores, type Both } from "./differential";
import { LINK, seedMoney } from "./money-world";

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

const ALL: OperatorFilter = { partnerId: null, status: null, limit: 50 };
const FILTERS: OperatorFilter[] = [
  ALL,
  { ...ALL, partnerId: "p1" },
  { ...ALL, status: "captured" },
  { ...ALL, partnerId: "p2", status: "captured" },
  { ...ALL, partnerId: "nobody" },
  { ...ALL, limit: 2 },
];

/** Settles the day and puts p1's and p2's dues into two batches, one paid, through the settlement operations. */
async function batches(s: Repos["settlement"]): Promise<void> {
  await s.settle("2026-01-01", 60_000);
  await s.createBatch({ id: "B1", partnerId: "p1", day: "2026-01-02", amount: 1, createdAtMs: 70_000 });
  await s.assignDue("B1", "p1", "2026-01-02", 60_000);
  await s.createBatch({ id: "B2", partnerId: "p2", day: "2026-01-03", amount: 2, createdAtMs: 71_000 });
  await s.assignDue("B2", "p2", "2026-01-03", 60_000);
  await s.finishBatch("B2", ["pending"], "paid_out", 72_000, "transfer-1");
}

async function run<T>(b: Both, steps: (ops: OperatorOps) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  await seedMoney(b);
  await b.sqlite((tx) => batches(tx.settlement));
  await b.pg((sql: Pg) => batches(settlementPg(sql)));
  return { sqlite: await b.sqlite((tx) => steps(tx.operator)), pg: await b.pg((sql) => steps(operatorPg(sql))) };
}

describe("issue 23: operator operations answer on PostgreSQL as on SQLite", () => {
  it("payments, links and payout batches listings: each filter, order, limit", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (o) => {
      const out: unknown[] = [];
      for (const f of FILTERS) out.push(await o.payments(f), await o.links(f), await o.payoutBatches(f));
      out.push(await o.payoutBatches({ ...ALL, status: "paid_out" }), await o.links({ ...ALL, status: "initiated" }));
      return out;
    });
    expect(pg).toEqual(sqlite);
    expect((sqlite[0] as { code: string }[]).map((p) => p.code)).toEqual(["P4", "P3", "P2", "P6", "P5", "P1"]);
    expect(sqlite[1]).toEqual([
      {
        id: LINK.id,
        partnerId: "p1",
        partnerReference: 1,
        terminalId: "t1",
        status: "initiated",
        amount: 10_000,
        shareBps: 0,
        description: "bir",
        expiresAtMs: 900_000,
        createdAtMs: 5_000,
      },
    ]);
  });

  it("payments of a link and of a batch, refunds by id, payment and batch, one batch", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (o) => [
      await o.paymentsOfLink("L1"),
      await o.paymentsOfLink("missing"),
      await o.paymentsOfBatch("B1"),
      await o.paymentsOfBatch("B2"),
      await o.refund("R1"),
      await o.refund("missing"),
      await o.refundsOfPayment("P1"),
      await o.refundsOfPayment("P5"),
      await o.refundsOfBatch("B1"),
      await o.refundsOfBatch("B2"),
      await o.payoutBatch("B2"),
      await o.payoutBatch("missing"),
    ]);
    expect(pg).toEqual(sqlite);
    expect((sqlite[0] as { code: string }[]).map((p) => p.code)).toEqual(["P1", "P5"]);
    expect((sqlite[2] as { code: string }[]).map((p) => p.code)).toEqual(["P1", "P2"]);
    expect(sqlite[4]).toMatchObject({ id: "R1", status: "approved", payoutBatchId: "B1", updatedAtMs: 40_000 });
    expect(sqlite[10]).toMatchObject({ id: "B2", status: "paid_out", reference: "transfer-1" });
  });
});
