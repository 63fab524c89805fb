import { afterEach, describe, expect, it } from "vitest";
import { runDayEnd } from "../../src/domain/settlement/dayend";
import { DAY_MS, DAYEND_CATCH_UP_MAX_DAYS, HOUR_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { capture } from "../support/kasa-process";
import { MONEY_SEED, NO_ACCOUNT_KEY } from "../support/money-fixtures";

// product 9, 16: day end at 00:00 Istanbul settles the day's captures and pays out what is due;
// interface 6.1, 6.2: payout.paid_out / payout.failed carry payoutBatchId and partnerId.
// T0 is 2026-11-20 12:00 Istanbul; its day end is due 12 hours later.

const TO_MIDNIGHT = 12 * HOUR_MS;

let h: Harness;
afterEach(async () => h?.close());

let seq = 0;
const code = () => `S-${++seq}`;

const batches = async (partnerId: string | null = null) =>
  (await h.store.q.operator.payoutBatches({ partnerId, status: null, limit: 1000 })).reverse();

const payoutEvents = async () =>
  (await h.store.q.webhooks.list({ partnerId: null, status: null, limit: 10_000 }))
    .map((d) => JSON.parse(d.body) as Record<string, string>)
    .filter((b) => b.type!.startsWith("payout."))
    .reverse();

describe("product 9: day end at 00:00 Europe/Istanbul by the timer wheel", () => {
  it("not a millisecond early: at 23:59:59.999 nothing is settled; at 00:00 the day's captures are", async () => {
    h = await harness();
    const pay = await capture(h);
    await h.advance(TO_MIDNIGHT - 1);
    expect(await h.store.q.settlement.hasRun("2026-11-20")).toBe(false);
    expect((await h.store.q.payments.get(pay))?.settledDay).toBeNull();
    await h.advance(1);
    expect(await h.store.q.settlement.hasRun("2026-11-20")).toBe(true);
    expect((await h.store.q.payments.get(pay))?.settledDay).toBe("2026-11-20");
  });

  it("runs once per day: a second run of the same day (another process, kasa dayend) does nothing", async () => {
    h = await harness();
    await capture(h);
    await h.advance(TO_MIDNIGHT);
    expect(await batches()).toHaveLength(1);
    expect(await runDayEnd(h.deps, "2026-11-20")).toEqual({ day: "2026-11-20", ran: false, settled: 0, batches: [] });
    expect(await batches()).toHaveLength(1);
    await h.advance(DAY_MS);
    expect(await h.store.q.settlement.lastDay()).toBe("2026-11-21");
  });

  it("a clock jump of 400 days runs at most DAYEND_CATCH_UP_MAX_DAYS day ends after the first (they are cumulative)", async () => {
    h = await harness();
    const pay = await capture(h);
    await h.advance(400 * DAY_MS);
    const days = await h.store.q.fixtures.dayEnds();
    expect(days[0]).toBe("2026-11-20");
    expect(days).toHaveLength(1 + DAYEND_CATCH_UP_MAX_DAYS);
    expect(await h.store.q.settlement.lastDay()).toBe("2027-12-24"); // today is 2027-12-25
    expect((await h.store.q.payments.get(pay))?.settledDay).toBe("2026-11-20");
    expect(await batches()).toHaveLength(1);
  });

  it("a voided capture is never settled nor paid; a void pending at midnight holds settlement until the bank answers", async () => {
    h = await harness();
    const voided = await capture(h);
    await h.post(`/v1/payments/${voided}/refunds`, { partnerRefundCode: code() });
    await h.advance(TO_MIDNIGHT - 30_000);
    const slow = await capture(h, { pan: "5400001300000000" });
    expect((await h.post(`/v1/payments/${slow}/refunds`, { partnerRefundCode: code() })).json).toMatchObject({
      method: "void",
      status: "pending",
    });
    await h.advance(30_000); // 00:00: day end
    expect(await h.store.q.settlement.hasRun("2026-11-20")).toBe(true);
    expect(await h.store.q.payments.get(slow)).toMatchObject({ status: "captured", settledDay: null });
    await h.advance(30_000); // the bank approves the void
    expect(await h.store.q.payments.get(slow)).toMatchObject({ status: "voided", settledDay: null });
    await h.advance(3 * DAY_MS);
    expect(await h.store.q.payments.get(voided)).toMatchObject({ status: "voided", settledDay: null, payoutBatchId: null });
    expect(await batches()).toEqual([]);
  });
});

describe("product 16: a settlement with value date D is paid by the day end that runs at 00:00 Istanbul of D", () => {
  it.each([
    ["T-VD0", 0, "2026-11-20", "2026-11-21"],
    ["T-1", 1, "2026-11-21", "2026-11-21"],
    ["T-VD2", 2, "2026-11-22", "2026-11-22"],
  ] as const)("%s (value days %i): value date %s, paid by the day end running on %s", async (terminalId, _days, valueDate, paidOn) => {
    h = await harness({ seed: MONEY_SEED });
    const pay = await capture(h, { terminalId });
    const payment = (await h.store.q.payments.get(pay))!;
    expect(payment.expectedValueDate).toBe(valueDate);
    await h.advance(TO_MIDNIGHT);
    const first = await batches();
    if (paidOn === "2026-11-21") {
      expect(first).toEqual([
        expect.objectContaining({ day: "2026-11-21", amount: payment.netToPartner, status: "paid_out", partnerId: "ptn_test" }),
      ]);
      expect((await h.store.q.payments.get(pay))?.payoutBatchId).toBe(first[0]!.id);
      return;
    }
    expect(first).toEqual([]);
    await h.advance(DAY_MS - 1);
    expect(await batches()).toEqual([]);
    await h.advance(1);
    expect(await batches()).toEqual([expect.objectContaining({ day: paidOn, amount: payment.netToPartner, status: "paid_out" })]);
  });
});

describe("product 9: payout batches per partner, minus approved credit refunds; interface 6.2 payout webhooks", () => {
  it("one batch per partner: settled nets minus credits; payout.paid_out carries payoutBatchId and partnerId only", async () => {
    h = await harness({ seed: MONEY_SEED });
    const a = await capture(h, { amount: 10_000 });
    const b = await capture(h, { amount: 20_000 });
    const refund = (await h.post(`/v1/payments/${b}/refunds/credit`, { amount: 3_000, partnerRefundCode: code() })).json.refundId;
    const other = await capture(h, { amount: 5_000, terminalId: "T-OTHER", key: "kasa_sk_other_cccccccccccccccccccccccccccccc" });
    await h.advance(TO_MIDNIGHT);
    const net = async (p: string) => (await h.store.q.payments.get(p))!.netToPartner!;
    const [mine] = await batches("ptn_test");
    expect(mine).toMatchObject({ day: "2026-11-21", amount: (await net(a)) + (await net(b)) - 3_000, status: "paid_out" });
    expect(mine!.id).toMatch(/^pob_[0-9a-z]{20}$/);
    expect((await h.store.q.refunds.get(refund))?.payoutBatchId).toBe(mine!.id);
    expect((await h.store.q.operator.paymentsOfBatch(mine!.id)).map((p) => p.code).sort()).toEqual([a, b].sort());
    // ptn_other has no payout account (its batch fails) and no webhook URL: nothing is queued for it (interface 6).
    expect(await batches("ptn_other")).toEqual([expect.objectContaining({ amount: await net(other), status: "failed" })]);
    expect(await payoutEvents()).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: "payout.paid_out",
        occurredAt: "2026-11-20T21:00:00.000Z",
        payoutBatchId: mine!.id,
        partnerId: "ptn_test",
      },
    ]);
  });

  it("no payout account: payout.failed, the items are released and retried by the next day end", async () => {
    h = await harness({ seed: MONEY_SEED });
    const pay = await capture(h, { terminalId: "T-NOACCT", key: NO_ACCOUNT_KEY });
    await h.advance(TO_MIDNIGHT);
    const [first] = await batches("ptn_noacct");
    expect(first).toMatchObject({ status: "failed", amount: (await h.store.q.payments.get(pay))!.netToPartner });
    expect((await h.store.q.payments.get(pay))?.payoutBatchId).toBeNull();
    await h.advance(DAY_MS);
    const all = await batches("ptn_noacct");
    expect(all.map((b) => [b.day, b.status])).toEqual([
      ["2026-11-21", "failed"],
      ["2026-11-22", "failed"],
    ]);
    expect((await payoutEvents()).map((e) => [e.type, e.payoutBatchId, e.partnerId])).toEqual(
      all.map((b) => ["payout.failed", b.id, "ptn_noacct"]),
    );
  });

  it("refunds larger than what is due make no batch; the negative balance is netted against later captures", async () => {
    h = await harness({ seed: MONEY_SEED });
    const a = await capture(h, { amount: 10_000 });
    await h.advance(TO_MIDNIGHT); // 2026-11-21 00:00: a is paid
    expect(await batches()).toHaveLength(1);
    await h.advance(HOUR_MS);
    expect((await h.post(`/v1/payments/${a}/refunds`, { partnerRefundCode: code() })).json).toMatchObject({
      method: "credit",
      status: "approved",
    });
    await h.advance(DAY_MS - HOUR_MS); // 2026-11-22 00:00: -10,000 due, no batch
    expect(await batches()).toHaveLength(1);
    await h.advance(HOUR_MS);
    const b = await capture(h, { amount: 20_000 });
    await h.advance(DAY_MS - HOUR_MS); // 2026-11-23 00:00
    const all = await batches();
    expect(all.map((x) => x.day)).toEqual(["2026-11-21", "2026-11-23"]);
    expect(all[1]!.amount).toBe((await h.store.q.payments.get(b))!.netToPartner! - 10_000);
  });

  it("a credit refund approved after 00:00 waits for the next day end even when the clock jumps over it", async () => {
    h = await harness({ seed: MONEY_SEED });
    const a = await capture(h, { amount: 10_000, terminalId: "T-VD2" });
    await h.advance(TO_MIDNIGHT + HOUR_MS); // settled at 11-21 00:00, value date 11-22
    await h.post(`/v1/payments/${a}/refunds`, { amount: 1_000, partnerRefundCode: code() });
    await h.advance(DAY_MS);
    expect(await batches()).toEqual([
      expect.objectContaining({ day: "2026-11-22", amount: (await h.store.q.payments.get(a))!.netToPartner! - 1_000 }),
    ]);
  });
});
