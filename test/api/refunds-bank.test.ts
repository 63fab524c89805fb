import { afterEach, describe, expect, it } from "vitest";
import { harness, type Harness } from "../support/harness";
import { capture } from "../support/kasa-process";

// product 9 and 6 (test cards), interface 6.1: what the bank answers, how it is recorded, and the
// refund.* outbox rows. The bank is called outside any unit of work, with the refund pending.

const PENDING_CARD = "5400001300000000";
const DECLINING_CARD = "4000001500000005";

let h: Harness;
afterEach(async () => h?.close());

let seq = 0;
const code = () => `B-${++seq}`;

/** Event types queued for one payment, sorted (rows of one instant have no order among them). */
const eventsOf = async (pay: string): Promise<string[]> =>
  (await h.store.q.webhooks.list({ partnerId: null, status: null, limit: 10_000 }))
    .map((d) => JSON.parse(d.body) as { type: string; paymentCode?: string })
    .filter((b) => b.paymentCode === pay)
    .map((b) => b.type)
    .sort();

describe("product 9 / interface 6.1: bank answers and refund.* webhooks", () => {
  it.each([
    ["void", "voided"],
    ["credit", "refunded"],
  ] as const)("approved %s: bank fields recorded, payment %s, refund.approved queued in the same unit", async (method, status) => {
    h = await harness();
    const pay = await capture(h);
    const res = await h.post(`/v1/payments/${pay}/refunds/${method}`, { partnerRefundCode: code() });
    expect(res.json).toMatchObject({ method, status: "approved" });
    const refund = (await h.store.q.refunds.get(res.json.refundId))!;
    expect(refund).toMatchObject({ procReturnCode: "00", errMsg: null, amount: 10_000 });
    expect(refund.bankReference).toMatch(method === "void" ? /^SIMVD-/ : /^SIMRF-/);
    expect(await h.store.q.payments.get(pay)).toMatchObject({ status, refundedAmount: 10_000 });
    expect(await eventsOf(pay)).toEqual(["payment.captured", "refund.approved"].sort());
  });

  it("declined (card 4000001500000005): recorded with the bank's code and message, nothing deducted, refund.declined", async () => {
    h = await harness();
    const pay = await capture(h, { pan: DECLINING_CARD });
    const res = await h.post(`/v1/payments/${pay}/refunds`, { partnerRefundCode: code() });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ method: "void", status: "declined" });
    expect((await h.get(`/v1/payments/${pay}/refunds/${res.json.refundId}`)).json).toMatchObject({
      status: "declined",
      procReturnCode: "05",
      authCode: null,
      errMsg: "Refund declined by the issuer",
    });
    expect(await h.store.q.payments.get(pay)).toMatchObject({ status: "captured", refundedAmount: 0 });
    expect(await eventsOf(pay)).toEqual(["payment.captured", "refund.declined"].sort());
    // A declined refund reserves nothing: the whole amount can be asked again.
    expect((await h.post(`/v1/payments/${pay}/refunds/credit`, { partnerRefundCode: code() })).json.status).toBe("declined");
  });

  it("pending (card 5400001300000000): 201 pending, the refund-check timer asks again at the bank's hint, then approved", async () => {
    h = await harness();
    const pay = await capture(h, { pan: PENDING_CARD });
    const res = await h.post(`/v1/payments/${pay}/refunds`, { partnerRefundCode: code() });
    expect(res.json).toMatchObject({ method: "void", status: "pending" });
    const path = `/v1/payments/${pay}/refunds/${res.json.refundId}`;
    const pending = (await h.get(path)).json;
    expect(pending).toMatchObject({ status: "pending", procReturnCode: null, bankReference: expect.stringMatching(/^SIMVD-/) });
    expect((await h.get(`/v1/payments/${pay}`)).json.refunds).toEqual([expect.objectContaining({ status: "pending", amount: 10_000 })]);
    await h.advance(59_999);
    expect((await h.get(path)).json.status).toBe("pending");
    expect(await eventsOf(pay)).toEqual(["payment.captured"]);
    await h.advance(1);
    const done = (await h.get(path)).json;
    expect(done).toMatchObject({
      status: "approved",
      procReturnCode: "00",
      bankReference: pending.bankReference,
      updatedAt: "2026-11-20T09:01:00.000Z",
    });
    expect(await h.store.q.payments.get(pay)).toMatchObject({ status: "voided", refundedAmount: 10_000 });
    expect(await eventsOf(pay)).toEqual(["payment.captured", "refund.approved"].sort());
  });

  it("a bank that cannot be reached leaves the refund pending and asks again later (nothing lost)", async () => {
    h = await harness();
    const pay = await capture(h);
    const bank = h.deps.banks.sim as { refund: (typeof h.deps.banks.sim)["refund"] };
    const real = bank.refund;
    bank.refund = async () => {
      throw new Error("connection reset");
    };
    const res = await h.post(`/v1/payments/${pay}/refunds/credit`, { amount: 700, partnerRefundCode: code() });
    expect(res.json).toMatchObject({ method: "credit", status: "pending" });
    bank.refund = real;
    await h.advance(60_000);
    expect((await h.store.q.refunds.get(res.json.refundId))?.status).toBe("approved");
    expect((await h.store.q.payments.get(pay))?.refundedAmount).toBe(700);
  });
});

describe("product 9: concurrent refunds never exceed the captured amount", () => {
  it("20 simultaneous credits of 1,000 on a 10,000 capture: each is 201 or refused, and the approved ones fit", async () => {
    h = await harness();
    const pay = await capture(h, { amount: 10_000 });
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => h.post(`/v1/payments/${pay}/refunds/credit`, { amount: 1_000, partnerRefundCode: code() })),
    );
    for (const r of replies) expect([201, 409, 422]).toContain(r.status);
    const approved = (await h.store.q.refunds.ofPayment(pay)).filter((r) => r.status === "approved");
    const total = approved.reduce((s, r) => s + r.amount, 0);
    expect(total).toBeLessThanOrEqual(10_000);
    expect((await h.store.q.payments.get(pay))?.refundedAmount).toBe(total);
    expect(replies.filter((r) => r.status === 201)).toHaveLength(approved.length);
  });

  it("20 simultaneous whole refunds on all three endpoints: exactly one wins", async () => {
    h = await harness();
    const pay = await capture(h, { amount: 10_000 });
    const endpoints = ["", "/void", "/credit"];
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => h.post(`/v1/payments/${pay}/refunds${endpoints[i % 3]}`, { partnerRefundCode: code() })),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect((await h.store.q.payments.get(pay))?.refundedAmount).toBe(10_000);
  });

  it("while a slow refund is pending, 20 simultaneous ones are all 409 and the remainder is reserved", async () => {
    h = await harness();
    const pay = await capture(h, { amount: 10_000, pan: PENDING_CARD });
    expect((await h.post(`/v1/payments/${pay}/refunds/credit`, { amount: 6_000, partnerRefundCode: code() })).json.status).toBe("pending");
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => h.post(`/v1/payments/${pay}/refunds/credit`, { amount: 5_000, partnerRefundCode: code() })),
    );
    expect(replies.map((r) => r.json.error?.code)).toEqual(Array(20).fill("refund_in_progress"));
    await h.advance(60_000);
    const over = await h.post(`/v1/payments/${pay}/refunds/credit`, { amount: 5_000, partnerRefundCode: code() });
    expect(over.json.error.code).toBe("refund_amount_exceeds_remaining");
  });
});
