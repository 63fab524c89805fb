import { afterEach, describe, expect, it } from "vitest";
import { BANKS } from "../../src/bank/registry";
import type { BankModule } from "../../src/bank/module";
import { reconcileConnection } from "../../src/domain/reconciliation/run";
import { reconcile, runConnections } from "../../src/domain/reconciliation/service";
import { RECONCILE_TIMER } from "../../src/domain/reconciliation/timer";
import { toRunJson } from "../../src/domain/reconciliation/view";
import { HOUR_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { EST_SEED } from "./est-flow";
import { capturedPayment } from "./payments-flow";

// Reconciliation (docs/reconciliation.md) against the simulated bank, which answers from its own records (the references it
// minted), and the daily run on the sandbox clock.

const DAY = "2026-11-20";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The simulated bank with a list of the day's orders, one of which kasa never sent. */
const withDayList = (rows: Array<{ orderId: string; attemptId: string | null; amount: number }>): BankModule[] =>
  BANKS.map((b) =>
    b.id !== "sim"
      ? b
      : {
          ...b,
          reconcile: (c, env, gateway) => ({
            ...b.reconcile!(c, env, gateway),
            day: async () => rows.map((r) => ({ ...r, status: "approved" as const, reference: `REF-${r.orderId}` })),
          }),
        },
  );

describe("product 26: reconciliation against the simulated bank", () => {
  it("matched: a captured payment is one of the references the bank minted", async () => {
    h = await harness();
    const code = await capturedPayment(h);
    const connection = (await h.store.q.payments.get(code))!.connectionId;
    const r = await reconcileConnection(h.deps, connection, DAY);
    expect(toRunJson(r.run, r.findings)).toMatchObject({ connectionId: connection, date: DAY, findings: [] });
    expect(JSON.parse(r.run.counts)).toMatchObject({ matched: 1 });
  });

  it("the default scope leaves out every connection of the simulated bank; --connection may name one", async () => {
    h = await harness();
    expect(await runConnections(h.deps, undefined)).toEqual([]);
    expect(await runConnections(h.deps, "vpos-1")).toEqual(["vpos-1"]);
    expect(await reconcile(h.deps, [], DAY)).toEqual([]);
  });

  it("not_in_kasa: the day's list has an approved order kasa never sent (list APIs only)", async () => {
    h = await harness({ banks: withDayList([{ orderId: "X-1", attemptId: null, amount: 500 }]) });
    const code = await capturedPayment(h);
    const r = await reconcileConnection(h.deps, (await h.store.q.payments.get(code))!.connectionId, DAY);
    expect(toRunJson(r.run, r.findings).findings).toEqual([
      {
        class: "not_in_kasa",
        paymentCode: null,
        attemptId: null,
        refundId: null,
        kasa: { status: null, amount: null },
        bank: { status: "approved", amount: 500, reference: "REF-X-1" },
        repair: null,
      },
    ]);
    expect(JSON.parse(r.run.counts)).toMatchObject({ matched: 1, not_in_kasa: 1 });
  });

  it("one JSON log line per finding (--log-format json)", async () => {
    const jsonLog: string[] = [];
    h = await harness({
      jsonLog,
      banks: withDayList([
        { orderId: "X-1", attemptId: null, amount: 500 },
        { orderId: "X-2", attemptId: null, amount: 600 },
      ]),
    });
    const r = await reconcileConnection(h.deps, "vpos-1", DAY);
    const lines = jsonLog.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === "reconciliation finding");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: "warn",
      runId: r.run.id,
      connectionId: "vpos-1",
      date: DAY,
      class: "not_in_kasa",
      bankAmount: 500,
    });
  });

  it("not_in_kasa: an order of the list that is kasa's own attempt is not listed twice; an id kasa never made is", async () => {
    const rows: Array<{ orderId: string; attemptId: string | null; amount: number }> = [];
    h = await harness({ banks: withDayList(rows) });
    const code = await capturedPayment(h);
    const attemptId = (await h.store.q.attempts.byPayment(code))[0]!.id;
    rows.push({ orderId: attemptId, attemptId, amount: 10_000 }, { orderId: "att-unknown", attemptId: "att-unknown", amount: 700 });
    const r = await reconcileConnection(h.deps, (await h.store.q.payments.get(code))!.connectionId, DAY);
    expect(JSON.parse(r.run.counts)).toMatchObject({ matched: 1, not_in_kasa: 1 });
  });
});

describe("product 26: the daily run", () => {
  it("fires once per day at --reconcile-at on the sandbox clock, for the previous day, every connection not on the simulated bank", async () => {
    h = await harness({ seed: EST_SEED, estSim: {}, config: { mode: "sandbox", reconcileAt: 6 * 60 } });
    const finished = () => h!.log.lines.filter((l) => l.includes("the daily run finished")).map((l) => /"date":"([0-9-]+)"/.exec(l)?.[1]);
    // Started at 12:00 with yesterday's 06:00 run missed: it runs a minute after the start, once.
    await h.runDue();
    expect(finished()).toEqual([]);
    await h.advance(60_000);
    await h.advance(60_000);
    expect(finished()).toEqual(["2026-11-19"]);
    for (let i = 0; i < 12; i++) await h.advance(6 * HOUR_MS); // to 2026-11-23 12:00 Istanbul
    expect(finished()).toEqual(["2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"]);
    const runs = await h.store.q.reconcile.runs(null, 100);
    expect(new Set(runs.map((r) => r.connectionId))).toEqual(new Set(["vpos-est", "vpos-est-pay"]));
    expect(runs.filter((r) => r.day === "2026-11-22")).toHaveLength(2);
  });

  it("off unless configured: a kasa without --reconcile-at schedules no daily run", async () => {
    h = await harness({ seed: EST_SEED, estSim: {} });
    await h.advance(48 * HOUR_MS);
    expect(h.deps.timers.pendingByKind().get(RECONCILE_TIMER) ?? 0).toBe(0);
    expect(await h.store.q.reconcile.runs(null, 10)).toEqual([]);
  });
});
