import { afterEach, describe, expect, it } from "vitest";
import type { PaymentPageFilter } from "../../src/store/rows-money";
import type { PanelOps } from "../../src/store/panel-ops";
import { panelPg } from "../../src/store/postgres/panel-pg";
import { bothStores, type Both } from "./differential";
import { BIG, seedMoney } from "./money-world";
import { newPayment, type Ops, seedWorld as seedPaymentsWorld, T0 } from "./payments-world";
import { PANEL_REASONS, type PanelPaymentFilter } from "../../src/store/panel-dashboard-ops";
import type { TerminalRow } from "../../src/store/rows";
import type { AttemptStatus } from "../../src/store/rows-money";
import { terminalRow } from "../support/catalog-rows";
import { attemptsPg } from "../../src/store/postgres/attempts-pg";
import { bankPg } from "../../src/store/postgres/bank-pg";
import { linkCheckoutPg } from "../../src/store/postgres/link-checkout-pg";
import { paymentsPg } from "../../src/store/postgres/payments-pg";
import { refundsPg } from "../../src/store/postgres/refunds-pg";
import { settlementPg } from "../../src/store/postgres/settlement-pg";
import { catalogPg } from "../../src/store/postgres/catalog-pg";
import type { Repos } from "../../src/store/store";

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

// Issue 38: the dashboard's figures and the list's bank and reason filters. One partner's card
// attempts end in every way the panel tells apart (docs/panel.md, How a failure gets its reason);
// another partner's capture must never count.

const DAY = 86_400_000;
const ROUTER: TerminalRow = {
  ...terminalRow({ id: "T-R", partnerId: "ptn_a", connectionId: "vpos-2" }),
  routing: { members: ["T-1", "T-2"], rules: [], fallback: ["T-1", "T-2"], order: "rules", onUsInstallments: false },
};
const CAPTURE = { commissionAmount: 20, netToPartner: 980, expectedValueDate: "2026-12-01", bankReference: "b", authCode: "a" };

type Attempt = { n: number; status: AttemptStatus; counted?: boolean; terminal?: string; payment?: "failed" | "expired" | "captured" };
const ATTEMPTS: Attempt[] = [
  { n: 1, status: "captured", payment: "captured" },
  { n: 2, status: "declined", counted: true, terminal: "T-2" },
  { n: 3, status: "failed", payment: "failed" },
  { n: 4, status: "failed", payment: "failed" },
  { n: 5, status: "failed", payment: "expired" },
  { n: 6, status: "failed", terminal: "T-R" },
  { n: 7, status: "acs" },
];

async function dashboardWorld(o: Ops): Promise<void> {
  for (const a of ATTEMPTS) {
    const p = newPayment(a.n, { createdAtMs: T0 - 1_000 * a.n, expiresAtMs: T0 - 500 });
    await o.payments.insert(p);
    const terminalId = a.terminal ?? "T-1";
    const connectionId = terminalId === "T-2" || terminalId === "T-R" ? "vpos-2" : "vpos-1";
    const id = `att_${a.n}`;
    await o.attempts.insert({
      id,
      paymentCode: p.code,
      status: a.status,
      counted: a.counted ?? false,
      createdAtMs: T0,
      terminalId,
      connectionId,
      route: null,
    });
    if (a.payment === "captured") await o.payments.markCaptured(p.code, ["initiated"], CAPTURE, T0);
    if (a.payment === "failed") await o.payments.markFailed(p.code, ["initiated"], T0);
    if (a.payment === "expired") await o.payments.markExpired(p.code, ["initiated"], T0, T0);
  }
  // Attempt 4 reached the capture, which the bank declined.
  await o.bank.claimAuth("att_4", T0);
  const other = newPayment(9, { terminalId: "T-3" });
  await o.payments.insert(other);
  await o.payments.markCaptured(other.code, ["initiated"], CAPTURE, T0);
  const yesterday = newPayment(10, { createdAtMs: T0 - DAY });
  await o.payments.insert(yesterday);
  await o.payments.markCaptured(yesterday.code, ["initiated"], CAPTURE, T0 - DAY);
  await o.refunds.insertPending({
    id: "ref_1",
    paymentCode: yesterday.code,
    partnerId: "ptn_a",
    partnerRefundCode: "r1",
    method: "credit",
    amount: 300,
    createdAtMs: T0,
  });
  await o.refunds.finish("ref_1", ["pending"], "approved", { procReturnCode: "00", authCode: null, errMsg: null, bankReference: null }, T0);
}

async function dashboard(o: Ops, panel: PanelOps, settlement: Pick<Repos["settlement"], "createBatch">): Promise<unknown[]> {
  await dashboardWorld(o);
  await settlement.createBatch({ id: "pob_1", partnerId: "ptn_a", day: "2026-11-30", amount: 7_000, createdAtMs: T0 });
  const filter = { partnerId: "ptn_a", status: null, fromMs: null, toMs: null, search: null, before: null, limit: 50 };
  const codes = async (f: Partial<PanelPaymentFilter>) => (await panel.payments({ ...filter, ...f })).map((p) => p.code);
  return [
    await panel.capturedByDay("ptn_a", T0 - 30 * DAY, T0 + DAY, 3 * 3_600_000),
    await panel.attemptOutcomes("ptn_a", T0 - DAY, T0 - 2 * DAY),
    await panel.attemptOutcomes("ptn_b", T0 - DAY, T0 - 2 * DAY),
    await panel.refundTotals("ptn_a", T0 - DAY),
    await panel.openLinks("ptn_a", T0),
    await panel.openLinks("ptn_a", T0 + 2 * DAY),
    await panel.payoutsDue("ptn_a"),
    ...(await Promise.all(PANEL_REASONS.map((reason) => codes({ reason })))),
    await codes({ bank: "vpos-2" }),
    await codes({ bank: "vpos-2", reason: "declined" }),
  ];
}

describe("issue 38: the dashboard's figures answer on PostgreSQL as on SQLite", () => {
  it("captures by day, attempt outcomes by bank, refunds, open links, payouts due, bank and reason filters", async () => {
    both = await bothStores();
    await seedPaymentsWorld(both);
    await both.sqlite((tx) => tx.catalog.upsertTerminal(ROUTER));
    await both.pg((sql) => catalogPg(sql).upsertTerminal(ROUTER));
    const sqlite = await both.sqlite((tx) => dashboard(tx, tx.panel, tx.settlement));
    const pg = await both.pg((sql) =>
      dashboard(
        {
          payments: paymentsPg(sql),
          attempts: attemptsPg(sql),
          bank: bankPg(sql),
          linkCheckout: linkCheckoutPg(sql),
          refunds: refundsPg(sql),
        },
        panelPg(sql),
        settlementPg(sql),
      ),
    );
    expect(pg).toEqual(sqlite);
    const [byDay, outcomes, theirs, refunds, links, expiredLinks, payouts, threeD, declined, limits, abandoned, onB, declinedOnB] = sqlite;
    expect(byDay).toEqual([
      { dayStartMs: expect.any(Number), count: 1, sum: newPayment(10).amount },
      { dayStartMs: expect.any(Number), count: 1, sum: newPayment(1).amount },
    ]);
    expect(outcomes).toEqual([
      { bank: "vpos-1", outcome: "abandoned", count: 1 },
      { bank: "vpos-1", outcome: "captured", count: 1 },
      { bank: "vpos-1", outcome: "declined", count: 1 },
      { bank: "vpos-1", outcome: "open", count: 1 },
      { bank: "vpos-1", outcome: "three_d_failed", count: 1 },
      { bank: "vpos-2", outcome: "declined", count: 1 },
      { bank: "vpos-2", outcome: "limits", count: 1 },
    ]);
    expect(theirs).toEqual([]);
    expect(refunds).toEqual({ count: 1, sum: 300 });
    expect([links, expiredLinks]).toEqual([
      { count: 1, sum: 1_000 },
      { count: 0, sum: 0 },
    ]);
    expect(payouts).toEqual([
      { valueDate: "2026-11-30", batchId: "pob_1", count: null, amount: 7_000 },
      { valueDate: "2026-12-01", batchId: null, count: 2, amount: 1_960 },
    ]);
    const code = (n: number) => newPayment(n).code;
    expect([threeD, declined, limits, abandoned]).toEqual([[code(3)], [code(2), code(4)], [code(6)], [code(5)]]);
    expect([onB, declinedOnB]).toEqual([[code(2), code(6)], [code(2)]]);
  });
});
