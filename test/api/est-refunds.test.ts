import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS, MINUTE_MS } from "../../src/limits";
import { eventsOf, paymentRow } from "./payments-flow";
import { estHarness, estPayment, payAtBank, type EstHarness } from "./est-flow";

// Product 17 / issue 16: refunds through the EST adapter: Void on the day of capture, Credit after
// day end; unknown answers resolved by ORDERSTATUS / ORDERHISTORY, never by sending again.

const APPROVE = "4000001100000009";
const REFUND_DECLINED = "4000001500000005";

let h: EstHarness;
afterEach(async () => h?.close());

const types = () => h.sent.map((s) => s.type);
let seq = 0;
const refundCode = () => `E-${++seq}`;

async function captured(amount = 10_000, pan = APPROVE, terminal = "T-E3D"): Promise<string> {
  const p = await estPayment(h, terminal, amount);
  const done = await payAtBank(h, p.paymentRef, pan);
  if (!done.leftTo?.includes("status=captured")) throw new Error(`not captured: ${done.leftTo}`);
  h.sent.length = 0;
  return p.paymentCode;
}

/** The refund record of interface 2.4, as the partner reads it. */
async function refund(code: string, method: "void" | "credit", body: Record<string, unknown> = {}) {
  const res = await h.post(`/v1/payments/${code}/refunds/${method}`, { partnerRefundCode: refundCode(), ...body });
  if (res.status !== 201) throw new Error(`refund: ${res.status} ${res.text}`);
  return (await h.get(`/v1/payments/${code}/refunds/${res.json.refundId}`)).json;
}

describe("product 17: EST refunds", () => {
  it("void on the day of capture: Void sent once, approved, payment voided, HostRefNum recorded", async () => {
    h = await estHarness();
    const code = await captured();
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "approved", method: "void", procReturnCode: "00" });
    expect(r.bankReference).toMatch(/^\d{12}$/);
    expect(types()).toEqual(["Void"]);
    expect((await paymentRow(h, code)).status).toBe("voided");
    expect((await eventsOf(h, code)).sort()).toEqual(["payment.captured", "refund.approved"]);
  });

  it("credit after day end, in two parts: ORDERHISTORY then Credit each, both approved, payment refunded", async () => {
    h = await estHarness();
    const code = await captured(10_000);
    await h.advance(24 * HOUR_MS);
    expect(await refund(code, "credit", { amount: 4_000 })).toMatchObject({
      status: "approved",
      method: "credit",
      amount: 4_000,
      procReturnCode: "00",
    });
    expect(await refund(code, "credit", { amount: 6_000 })).toMatchObject({ status: "approved", amount: 6_000 });
    expect(types()).toEqual(["ORDERHISTORY", "Credit", "ORDERHISTORY", "Credit"]);
    expect((await paymentRow(h, code)).status).toBe("refunded");
  });

  it("a card whose refunds the bank declines: declined with the bank's code and message", async () => {
    h = await estHarness();
    const code = await captured(10_000, REFUND_DECLINED);
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "declined", procReturnCode: "99" });
    expect(r.errMsg).toBeTruthy();
    expect((await paymentRow(h, code)).status).toBe("captured");
    expect((await eventsOf(h, code)).sort()).toEqual(["payment.captured", "refund.declined"]);
  });

  it("a Void whose answer is lost (.93): pending, then ORDERSTATUS finds it voided; Void never re-sent", async () => {
    h = await estHarness();
    const code = await captured(10_093);
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "pending", bankReference: null });
    expect((await h.store.q.refunds.get(r.refundId))?.bankReference).toBe("?void");
    await h.advance(2 * MINUTE_MS);
    expect(types()).toEqual(["Void", "ORDERSTATUS"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
    expect((await paymentRow(h, code)).status).toBe("voided");
  });

  it("a Credit whose answer is lost (.95): pending, then ORDERHISTORY shows one more credit: approved, Credit never re-sent", async () => {
    h = await estHarness();
    const code = await captured(10_095);
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 5_095 });
    expect(r.status).toBe("pending");
    await h.advance(2 * MINUTE_MS);
    expect(types()).toEqual(["ORDERHISTORY", "Credit", "ORDERHISTORY"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
  });

  it("a Credit the bank never received (.92, HTTP 500): pending, then declined (no credit at the bank)", async () => {
    h = await estHarness();
    // Model 3d_pay: the gate authorises (no fault there), so the .92 applies to the Credit alone.
    const code = await captured(20_092, APPROVE, "T-EPAY");
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 1_092 });
    expect(r.status).toBe("pending");
    await h.advance(2 * MINUTE_MS);
    expect(types()).toEqual(["ORDERHISTORY", "Credit", "ORDERHISTORY"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("declined");
    expect((await paymentRow(h, code)).status).toBe("captured");
  });
});

describe("product 17: payouts of an EST connection wait for an operator", () => {
  it("a day end forms the batch and leaves it pending: no bank payout, no payout webhook", async () => {
    h = await estHarness();
    await captured(10_000);
    await h.advance(3 * 24 * HOUR_MS);
    const batches = await h.store.q.settlement.pendingBatches();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ partnerId: "ptn_test", status: "pending", reference: null });
    const types = (await h.store.q.webhooks.list({ partnerId: "ptn_test", status: null, limit: 100 })).map((d) => JSON.parse(d.body).type);
    expect(types.filter((t: string) => t.startsWith("payout."))).toEqual([]);
    expect(h.log.lines.some((l) => l.includes("payout batch awaits an operator's transfer"))).toBe(true);
  });
});
