import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS, MINUTE_MS } from "../../src/limits";
import { eventsOf, paymentRow } from "./payments-flow";
import { payAtBank, payflexHarness, payflexPayment, type PayflexHarness } from "./payflex-flow";

// Issue 35: refunds through the PayFlex adapter: Cancel on the day of the sale, Refund (full or
// partial) after the batch closed; a marker recorded before each call, so a lost answer is resolved
// by Search and never by sending again. Payouts wait for an operator.

const APPROVE = "4000001100000009";

let h: PayflexHarness;
afterEach(async () => h?.close());

let seq = 0;
const refundCode = () => `PF-${++seq}`;

async function captured(amount = 10_000): Promise<string> {
  const p = await payflexPayment(h, amount);
  const done = await payAtBank(h, p.paymentRef, APPROVE);
  if (!done.leftTo?.includes("status=captured")) throw new Error(`not captured: ${done.leftTo}`);
  h.sent.length = 0;
  return p.paymentCode;
}

async function refund(code: string, method: "void" | "credit", body: Record<string, unknown> = {}) {
  const res = await h.post(`/v1/payments/${code}/refunds/${method}`, { partnerRefundCode: refundCode(), ...body });
  if (res.status !== 201) throw new Error(`refund: ${res.status} ${res.text}`);
  return (await h.get(`/v1/payments/${code}/refunds/${res.json.refundId}`)).json;
}

/** A bank that does what it is asked and whose answer to `kind` is lost (or, `unsent`, never reaches it). */
const losing = (kind: "Cancel" | "Refund", unsent = false) => ({
  transport: async (_url: string, init: RequestInit, send: () => Promise<Response>) => {
    if (!String(init.body).includes(`%3CTransactionType%3E${kind}`)) return send();
    if (!unsent) await send();
    return new Response("bad gateway", { status: 502 });
  },
});

describe("issue 35: PayFlex refunds", () => {
  it("void on the day of the sale: one Cancel, approved, payment voided", async () => {
    h = await payflexHarness();
    const code = await captured();
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "approved", method: "void", procReturnCode: "0000" });
    expect(h.kinds()).toEqual(["Cancel"]);
    expect(new URLSearchParams(h.sent[0]!.body).get("prmstr")).toContain("<ReferenceTransactionId>att-");
    expect((await paymentRow(h, code)).status).toBe("voided");
    expect((await eventsOf(h, code)).sort()).toEqual(["payment.captured", "refund.approved"]);
  });

  it("a void after the day ends is kasa's refusal (refund_method_not_available): nothing sent", async () => {
    h = await payflexHarness();
    const code = await captured();
    await h.advance(24 * HOUR_MS);
    const res = await h.post(`/v1/payments/${code}/refunds/void`, { partnerRefundCode: refundCode() });
    expect(res.json.error.code).toBe("refund_method_not_available");
    expect(h.kinds()).toEqual([]);
    expect((await paymentRow(h, code)).status).toBe("captured");
  });

  it("a refund above what is left is refused before the bank; a full refund then a second one is the bank's 1059 or kasa's refusal", async () => {
    h = await payflexHarness();
    const code = await captured(10_000);
    await h.advance(24 * HOUR_MS);
    expect(await refund(code, "credit", { amount: 10_000 })).toMatchObject({ status: "approved" });
    const again = await h.post(`/v1/payments/${code}/refunds/credit`, { partnerRefundCode: refundCode(), amount: 100 });
    expect(again.status).toBe(422);
    expect(h.kinds().filter((k) => k === "Refund")).toHaveLength(1);
  });

  it("refund after the batch closed, in two parts: Search then Refund each, both approved, payment refunded", async () => {
    h = await payflexHarness();
    const code = await captured(10_000);
    await h.advance(24 * HOUR_MS);
    expect(await refund(code, "credit", { amount: 4_000 })).toMatchObject({ status: "approved", amount: 4_000, procReturnCode: "0000" });
    expect(await refund(code, "credit", { amount: 6_000 })).toMatchObject({ status: "approved", amount: 6_000 });
    expect(h.kinds()).toEqual(["Search", "Refund", "Search", "Refund"]);
    expect(new URLSearchParams(h.sent[1]!.body).get("prmstr")).toContain("<CurrencyAmount>40.00</CurrencyAmount>");
    expect((await paymentRow(h, code)).status).toBe("refunded");
  });

  it("a Cancel whose answer is lost: pending under ?void, then Search shows it cancelled; Cancel never re-sent", async () => {
    h = await payflexHarness(losing("Cancel"));
    const code = await captured();
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "pending", bankReference: null });
    expect((await h.store.q.refunds.get(r.refundId))?.bankReference).toBe("?void");
    await h.advance(2 * MINUTE_MS);
    expect(h.kinds()).toEqual(["Cancel", "Search"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
    expect((await paymentRow(h, code)).status).toBe("voided");
  });

  it("a Refund whose answer is lost: pending, then Search shows a larger TotalRefundAmount: approved, never re-sent", async () => {
    h = await payflexHarness(losing("Refund"));
    const code = await captured();
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 2_500 });
    expect(r.status).toBe("pending");
    expect((await h.store.q.refunds.get(r.refundId))?.bankReference).toBe("?refund:0");
    await h.advance(2 * MINUTE_MS);
    expect(h.kinds()).toEqual(["Search", "Refund", "Search"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
  });

  it("a Refund the bank never received: pending, then declined (no refund at the bank); nothing sent twice", async () => {
    h = await payflexHarness(losing("Refund", true));
    const code = await captured();
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 2_500 });
    expect(r.status).toBe("pending");
    await h.advance(2 * MINUTE_MS);
    expect(h.kinds()).toEqual(["Search", "Refund", "Search"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("declined");
    expect((await paymentRow(h, code)).status).toBe("captured");
  });

  it("payouts of a PayFlex connection wait for an operator", async () => {
    h = await payflexHarness();
    await captured();
    await h.advance(3 * 24 * HOUR_MS);
    const batches = await h.store.q.settlement.pendingBatches();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ status: "pending", reference: null });
  });
});
