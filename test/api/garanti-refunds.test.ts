import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS, MINUTE_MS } from "../../src/limits";
import { eventsOf, paymentRow } from "./payments-flow";
import { type GarantiHarness, garantiHarness, garantiPayment, payAtBank } from "./garanti-flow";

// Issue 31: refunds through the Garanti adapter: void on the day of the sale, refund after the
// bank's end of day (partial allowed), both as the refund user with the sale's RetrefNum; unknown
// answers resolved by the order's history (`orderhistoryinq`), never by sending again.

const APPROVE = "4000001100000009";
const REFUND_DECLINED = "4000001500000005";

let h: GarantiHarness;
afterEach(async () => h?.close());

let seq = 0;
const refundCode = () => `G-${++seq}`;

async function captured(amount = 10_000, pan = APPROVE, terminal = "T-G3D"): Promise<string> {
  const p = await garantiPayment(h, terminal, amount);
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

describe("issue 31: Garanti refunds", () => {
  it("void on the day of the sale: void sent once, approved, payment voided, RetrefNum recorded", async () => {
    h = await garantiHarness();
    const code = await captured();
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "approved", method: "void", procReturnCode: "00" });
    expect(r.bankReference).toMatch(/^\d{12}$/);
    expect(h.sent).toEqual(["void"]);
    expect((await paymentRow(h, code)).status).toBe("voided");
    expect((await eventsOf(h, code)).sort()).toEqual(["payment.captured", "refund.approved"]);
  });

  it("refund after the day end, in two parts: orderhistoryinq then refund each, both approved, payment refunded", async () => {
    h = await garantiHarness();
    const code = await captured(10_000);
    await h.advance(24 * HOUR_MS);
    expect(await refund(code, "credit", { amount: 4_000 })).toMatchObject({ status: "approved", amount: 4_000, procReturnCode: "00" });
    expect(await refund(code, "credit", { amount: 6_000 })).toMatchObject({ status: "approved", amount: 6_000 });
    expect(h.sent).toEqual(["orderhistoryinq", "refund", "orderhistoryinq", "refund"]);
    expect((await paymentRow(h, code)).status).toBe("refunded");
  });

  it("a refund on the day of the sale: the bank's 92/0208, declined with its code and words", async () => {
    h = await garantiHarness();
    const code = await captured(10_000);
    const r = await refund(code, "credit", { amount: 1_000 });
    expect(r).toMatchObject({ status: "declined", procReturnCode: "92" });
    expect(r.errMsg).toContain("0208");
    expect((await paymentRow(h, code)).status).toBe("captured");
  });

  it("a card whose refunds the bank declines: declined with the bank's code and message", async () => {
    h = await garantiHarness();
    const code = await captured(10_000, REFUND_DECLINED);
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "declined", procReturnCode: "05" });
    expect(r.errMsg).toBeTruthy();
    expect((await paymentRow(h, code)).status).toBe("captured");
    expect((await eventsOf(h, code)).sort()).toEqual(["payment.captured", "refund.declined"]);
  });

  it("a 3D Pay sale is voided with the hostrefnum of its callback", async () => {
    h = await garantiHarness();
    const code = await captured(10_000, APPROVE, "T-GPAY");
    expect(await refund(code, "void")).toMatchObject({ status: "approved" });
    expect((await paymentRow(h, code)).status).toBe("voided");
  });

  it("a void whose answer is lost (.93): pending, then the history shows the void; void never re-sent", async () => {
    h = await garantiHarness();
    const code = await captured(10_093, APPROVE, "T-GPAY");
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "pending", bankReference: null });
    expect((await h.store.q.refunds.get(r.refundId))?.bankReference).toBe("?void");
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["void", "orderhistoryinq"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
    expect((await paymentRow(h, code)).status).toBe("voided");
  });

  it("a refund whose answer is lost (.95): pending, then the history shows one more refund: approved, never re-sent", async () => {
    h = await garantiHarness();
    const code = await captured(10_095, APPROVE, "T-GPAY");
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 5_095 });
    expect(r.status).toBe("pending");
    expect((await h.store.q.refunds.get(r.refundId))?.bankReference).toBe("?refund:0");
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["orderhistoryinq", "refund", "orderhistoryinq"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
  });

  it("a refund the bank never received (.92, HTTP 500): pending, then declined (no refund at the bank)", async () => {
    h = await garantiHarness();
    const code = await captured(20_092, APPROVE, "T-GPAY");
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 1_092 });
    expect(r.status).toBe("pending");
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["orderhistoryinq", "refund", "orderhistoryinq"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("declined");
    expect((await paymentRow(h, code)).status).toBe("captured");
  });
});

describe("issue 31: payouts of a Garanti connection wait for an operator", () => {
  it("a day end forms the batch and leaves it pending: no bank payout", async () => {
    h = await garantiHarness();
    await captured(10_000);
    await h.advance(3 * 24 * HOUR_MS);
    const batches = await h.store.q.settlement.pendingBatches();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ status: "pending", reference: null });
    expect(h.log.lines.some((l) => l.includes("payout batch awaits an operator's transfer"))).toBe(true);
  });
});
