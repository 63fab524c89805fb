import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reconcilePg } from "../../src/store/postgres/reconcile-pg";
import type { Pg } from "../../src/store/postgres/pg";
import type { ReconcileFindingRow } from "../../src/store/reconcile-ops";
import type { Repos } from "../../src/store/store";
import { bothStores, type Both } from "./differential";
import { newPayment, onBoth, seedWorld, T0 } from "./payments-world";

// Reconciliation (docs/reconciliation.md) on PostgreSQL: the reconciliation group (the day's scope, stored runs superseding
// each other, repairs recorded once, the run lease two instances contend for) answers as on SQLite.

type Ops = Pick<Repos, "reconcile">;
const pgOps = (sql: Pg): Ops => ({ reconcile: reconcilePg(sql) });
const onBothReconcile = async <T>(both: Both, f: (o: Ops) => Promise<T>) => ({
  sqlite: await both.sqlite((tx) => f(tx)),
  pg: await both.pg((sql) => f(pgOps(sql))),
});

const DAY_START = T0 - 15 * 3_600_000; // 2026-11-29 00:00 Istanbul

let both: Both;
beforeEach(async () => {
  both = await bothStores();
  await seedWorld(both);
  await onBoth(both, async (o) => {
    await o.payments.insert(newPayment(1));
    await o.payments.insert(newPayment(2, { terminalId: "T-2" }));
    for (const [id, code, connectionId] of [
      ["att-1", newPayment(1).code, "vpos-1"],
      ["att-2", newPayment(2).code, "vpos-2"],
    ] as const) {
      await o.attempts.insert({ terminalId: null, connectionId, id, paymentCode: code, status: "acs", counted: true, createdAtMs: T0 });
    }
    await o.attempts.insert({
      terminalId: null,
      connectionId: "vpos-1",
      id: "att-0",
      paymentCode: newPayment(1).code,
      status: "starting",
      counted: false,
      createdAtMs: T0,
    });
  });
});
afterEach(async () => both.close());

const finding = (cls: ReconcileFindingRow["class"], n: number): ReconcileFindingRow => ({
  class: cls,
  paymentCode: `pay_${n}`,
  attemptId: `att-${n}`,
  refundId: null,
  kasaStatus: "failed",
  kasaAmount: 1_000,
  bankStatus: "approved",
  bankAmount: 1_000,
  bankReference: "HR",
  repairAction: cls === "bank_approved" ? "void" : null,
  repairOutcome: cls === "bank_approved" ? "approved" : null,
});

describe("product 26: reconciliation operations answer on PostgreSQL as on SQLite", () => {
  it("attemptsSent: the connection's attempts of the day that reached the bank; refundsSent: none yet", async () => {
    const steps = async (o: Ops) => [
      await o.reconcile.attemptsSent("vpos-1", DAY_START, DAY_START + 86_400_000),
      await o.reconcile.attemptsSent("vpos-2", DAY_START, DAY_START + 86_400_000),
      await o.reconcile.attemptsSent("vpos-1", DAY_START + 86_400_000, DAY_START + 2 * 86_400_000),
      await o.reconcile.refundsSent("vpos-1", DAY_START, DAY_START + 86_400_000),
    ];
    const { sqlite, pg } = await onBothReconcile(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual([
      {
        attemptId: "att-1",
        paymentCode: newPayment(1).code,
        attemptStatus: "acs",
        paymentStatus: "initiated",
        amount: 1_001,
        installment: 1,
        bankReference: null,
        expiresAtMs: T0 + 600_000,
        checkOpen: false,
      },
    ]);
    expect(sqlite[1]).toHaveLength(1);
    expect(sqlite[2]).toEqual([]);
  });

  it("saveRun supersedes the day's current run of the connection; runs lists current ones; findings keep their order", async () => {
    const steps = async (o: Ops) => {
      const run = (id: string, connectionId: string, day: string) => ({
        id,
        connectionId,
        day,
        startedAtMs: T0,
        finishedAtMs: T0 + 1,
        counts: '{"matched":1}',
      });
      await o.reconcile.saveRun(run("rec_1", "vpos-1", "2026-11-28"), [finding("unknown", 1), finding("bank_approved", 2)]);
      await o.reconcile.saveRun(run("rec_2", "vpos-2", "2026-11-28"), []);
      await o.reconcile.saveRun(run("rec_3", "vpos-1", "2026-11-28"), [finding("bank_missing", 3)]);
      await o.reconcile.saveRun(run("rec_4", "vpos-1", "2026-11-29"), []);
      return [
        await o.reconcile.runs(null, 10),
        await o.reconcile.runs("vpos-1", 1),
        await o.reconcile.run("rec_1"),
        await o.reconcile.findings("rec_1"),
        await o.reconcile.findings("rec_3"),
      ];
    };
    const { sqlite, pg } = await onBothReconcile(both, steps);
    expect(pg).toEqual(sqlite);
    expect((sqlite[0] as Array<{ id: string }>).map((r) => r.id)).toEqual(["rec_4", "rec_3", "rec_2"]);
    expect(sqlite[2]).toMatchObject({ supersededBy: "rec_3" });
    expect(sqlite[3]).toEqual([finding("unknown", 1), finding("bank_approved", 2)]);
  });

  it("a repair is recorded once; a declined void may become a credit; finishRepair answers an open one", async () => {
    const repair = { attemptId: "att-1", connectionId: "vpos-1", captureReference: "att-1", amount: 1_001, createdAtMs: T0 };
    const steps = async (o: Ops) => [
      await o.reconcile.recordRepair({ ...repair, action: "void" }),
      await o.reconcile.recordRepair({ ...repair, action: "void" }),
      await o.reconcile.recordRepair({ ...repair, action: "credit" }),
      await o.reconcile.finishRepair("att-1", "void", "declined", T0 + 1),
      await o.reconcile.finishRepair("att-1", "void", "approved", T0 + 2),
      await o.reconcile.recordRepair({ ...repair, action: "credit", createdAtMs: T0 + 3 }),
      await o.reconcile.repair("att-1"),
      await o.reconcile.finishRepair("att-1", "credit", "approved", T0 + 4),
      await o.reconcile.repair("att-1"),
    ];
    const { sqlite, pg } = await onBothReconcile(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite.slice(0, 6)).toEqual([true, false, false, true, false, true]);
    expect(sqlite[6]).toMatchObject({ action: "credit", outcome: null, createdAtMs: T0, updatedAtMs: T0 + 3 });
    expect(sqlite[8]).toMatchObject({ action: "credit", outcome: "approved" });
  });

  it("the run lease: one holder at a time, renewed by its holder, taken over once it ran out, released", async () => {
    const steps = async (o: Ops) => [
      await o.reconcile.takeLease("vpos-1", "ins_a", 1_000, 2_000),
      await o.reconcile.takeLease("vpos-1", "ins_b", 1_500, 2_500),
      await o.reconcile.takeLease("vpos-1", "ins_a", 1_900, 3_000),
      await o.reconcile.takeLease("vpos-1", "ins_b", 3_000, 4_000),
      await o.reconcile.takeLease("vpos-2", "ins_a", 3_000, 4_000),
      await o.reconcile.releaseLease("vpos-1", "ins_a"),
      await o.reconcile.takeLease("vpos-1", "ins_a", 3_100, 4_100),
      await o.reconcile.releaseLease("vpos-1", "ins_b"),
      await o.reconcile.takeLease("vpos-1", "ins_a", 3_200, 4_200),
    ];
    const { sqlite, pg } = await onBothReconcile(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual([true, false, true, true, true, undefined, false, undefined, true]);
  });
});
