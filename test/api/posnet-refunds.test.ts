import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS, MINUTE_MS } from "../../src/limits";
import { eventsOf, paymentRow } from "./payments-flow";
import { APPROVE, posnetHarness, posnetPayment, payAtBank, REFUND_DECLINED, type PosnetHarness } from "./posnet-flow";

// Issue 33: refunds through the Posnet adapter: reverse on the day of capture, return after day end
// (partial allowed); a marker recorded before each call; unknown answers resolved by agreement,
// never by sending again. Payouts wait for an operator.

let h: PosnetHarness;
afterEach(async () => h?.close());

let seq = 0;
const refundCode = () => `P-${++seq}`;

async function captured(amount = 10_000, pan = APPROVE): Promise<string> {
  const p = await posnetPayment(h, amount);
  const done = await payAtBank(h, p.paymentRef, pan);
  if (!done.leftTo?.includes("status=captured")) throw new Error(`not captured: ${done.leftTo}`);
  h.sent.length = 0;
  return p.paymentCode;
}

async function refund(code: string, method: "void" | "credit", body: Record<string, unknown> = {}) {
  const res = await h.post(`/v1/payments/${code}/refunds/${method}`, { partnerRefundCode: refundCode(), ...body });
  if (res.status !== 201) throw new Error(`refund: ${res.status} ${res.text}`);
  return (await h.get(`/v1/payments/${code}/refunds/${res.json.refundId}`)).json;
}

describe("issue 33: Posnet refunds", () => {
  it("void on the day of capture: reverse sent once, approved, payment voided, hostlogkey recorded", async () => {
    h = await posnetHarness();
    const code = await captured();
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "approved", method: "void" });
    expect(r.bankReference).toMatch(/^\d{10}P\d{7}$/);
    expect(h.sent).toEqual(["reverse"]);
    expect((await paymentRow(h, code)).status).toBe("voided");
    expect((await eventsOf(h, code)).sort()).toEqual(["payment.captured", "refund.approved"]);
  });

  it("credit after day end, in two parts: agreement then return each, both approved, payment refunded", async () => {
    h = await posnetHarness();
    const code = await captured(10_000);
    await h.advance(24 * HOUR_MS);
    expect(await refund(code, "credit", { amount: 4_000 })).toMatchObject({ status: "approved", method: "credit", amount: 4_000 });
    expect(await refund(code, "credit", { amount: 6_000 })).toMatchObject({ status: "approved", amount: 6_000 });
    expect(h.sent).toEqual(["agreement", "return", "agreement", "return"]);
    expect((await paymentRow(h, code)).status).toBe("refunded");
  });

  it("a card whose refunds the bank declines: declined with the bank's code and message", async () => {
    h = await posnetHarness();
    const code = await captured(10_000, REFUND_DECLINED);
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "declined", procReturnCode: "0057" });
    expect(r.errMsg).toContain("0057");
    expect((await paymentRow(h, code)).status).toBe("captured");
    expect((await eventsOf(h, code)).sort()).toEqual(["payment.captured", "refund.declined"]);
  });

  it("a reverse whose answer is lost (.93): pending with marker ?reverse, then agreement finds it reversed; never re-sent", async () => {
    h = await posnetHarness();
    // The charge of 100.93 TL gets the .93 answer too and is resolved by agreement first.
    const code = await captured(10_093);
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "pending", bankReference: null });
    expect((await h.store.q.refunds.get(r.refundId))?.bankReference).toBe("?reverse");
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["reverse", "agreement"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
    expect((await paymentRow(h, code)).status).toBe("voided");
  });

  it("a return whose answer is lost (.95): pending, then agreement lists one more return: approved, never re-sent", async () => {
    h = await posnetHarness();
    const code = await captured(10_000);
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 5_095 });
    expect(r.status).toBe("pending");
    expect((await h.store.q.refunds.get(r.refundId))?.bankReference).toBe("?return:0");
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["agreement", "return", "agreement"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
  });

  it("a return the bank never received (.92, HTTP 500): pending, then declined (no return at the bank)", async () => {
    h = await posnetHarness();
    const code = await captured(20_000);
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 1_092 });
    expect(r.status).toBe("pending");
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["agreement", "return", "agreement"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("declined");
    expect((await paymentRow(h, code)).status).toBe("captured");
  });
});

describe("issue 33: payouts of a Posnet connection wait for an operator", () => {
  it("a day end forms the batch and leaves it pending: no bank payout, no payout webhook", async () => {
    h = await posnetHarness();
    await captured(10_000);
    await h.advance(3 * 24 * HOUR_MS);
    const batches = await h.store.q.settlement.pendingBatches();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ partnerId: "ptn_test", status: "pending", reference: null });
    const types = (await h.store.q.webhooks.list({ partnerId: "ptn_test", status: null, limit: 100 })).map((d) => JSON.parse(d.body).type);
    expect(types.filter((t: string) => t.startsWith("payout."))).toEqual([]);
  });
});
