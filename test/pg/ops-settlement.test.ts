import { afterEach, describe, expect, it } from "vitest";
import type { SettlementOps } from "../../src/store/money-ops";
import { settlementPg } from "../../src/store/postgres/settlement-pg";
import { bothStores, type Both } from "./differential";
import { BIG, NET1, seedMoney } from "./money-world";

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

async function run<T>(b: Both, steps: (ops: SettlementOps) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  await seedMoney(b);
  return { sqlite: await b.sqlite((tx) => steps(tx.settlement)), pg: await b.pg((sql) => steps(settlementPg(sql))) };
}

describe("issue 23: settlement operations answer on PostgreSQL as on SQLite", () => {
  it("claimDay, lastDay, hasRun, oldestUnsettledCaptureMs and settle", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (s) => [
      await s.lastDay(),
      await s.hasRun("2026-01-01"),
      await s.oldestUnsettledCaptureMs(),
      await s.claimDay("2026-01-01", 60_000),
      await s.claimDay("2026-01-01", 61_000),
      await s.claimDay("2025-12-31", 62_000),
      await s.lastDay(),
      await s.hasRun("2026-01-01"),
      await s.hasRun("2026-01-02"),
      await s.settle("2026-01-01", 60_000),
      await s.settle("2026-01-01", 60_000),
      await s.oldestUnsettledCaptureMs(),
      await s.settle("2026-01-02", 100_000),
      await s.oldestUnsettledCaptureMs(),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual([null, false, 10_000, true, false, true, "2026-01-01", true, false, 3, 0, 15_000, 1, 15_000]);
  });

  it("partnersWithDue, dueOf (exact past 2^53), batches: assign, finish, banks, release", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (s) => {
      const settled = await s.settle("2026-01-01", 60_000);
      const due = [
        await s.partnersWithDue("2026-01-02", 60_000),
        await s.partnersWithDue("2026-01-01", 45_000),
        await s.partnersWithDue("2025-12-31", 0),
        await s.dueOf("p1", "2026-01-02", 60_000),
        await s.dueOf("p2", "2026-01-03", 60_000),
        await s.dueOf("p2", "2026-01-02", 45_000),
      ];
      await s.createBatch({ id: "B1", partnerId: "p1", day: "2026-01-02", amount: 9_000, createdAtMs: 70_000 });
      const b1 = [
        await s.assignDue("B1", "p1", "2026-01-02", 60_000),
        await s.pendingBatches(),
        await s.banksOfBatch("B1"),
        await s.dueOf("p1", "2026-01-02", 60_000),
        await s.finishBatch("B1", ["paid_out"], "failed", 71_000),
        await s.finishBatch("B1", ["pending"], "failed", 71_000),
        await s.batch("B1"),
      ];
      await s.releaseBatch("B1");
      await s.createBatch({ id: "B2", partnerId: "p2", day: "2026-01-03", amount: 1, createdAtMs: 72_000 });
      const b2 = [
        await s.dueOf("p1", "2026-01-02", 60_000),
        await s.banksOfBatch("B1"),
        await s.assignDue("B2", "p2", "2026-01-03", 60_000),
        await s.banksOfBatch("B2"),
        await s.finishBatch("B2", ["pending"], "paid_out", 73_000, "transfer-9"),
        await s.batch("B2"),
        await s.pendingBatches(),
        await s.batch("missing"),
        await s.banksOfBatch("missing"),
      ];
      return { settled, due, b1, b2 };
    });
    expect(pg).toEqual(sqlite);
    expect(sqlite.due.slice(0, 4)).toEqual([["p1", "p2"], ["p1"], [], { captures: BigInt(BIG) + BigInt(NET1), refunds: 1_000n }]);
    expect(sqlite.b1[0]).toBe(BigInt(BIG) + BigInt(NET1) - 1_000n);
    expect(BigInt(BIG) + BigInt(NET1)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    expect(sqlite.b1[2]).toEqual(["akbank", "garanti"]);
    expect(sqlite.b2[2]).toBe(BigInt(BIG) + 1n - 500n);
  });
});
