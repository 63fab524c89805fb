import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "../../src/limits";
import { eventsOf, paymentRow } from "./payments-flow";
import { akbankHarness, akbankPayment, payAtBank, txnCodeOf, type AkbankHarness } from "./akbank-flow";

// Issue 34: a bank that answers HTML, 500, garbage or truncated JSON, or nothing within timeoutMs.
// The outcome is asked about (order history 1010), never by sending the sale again; what the bank
// did is what kasa records; a charge approved too late is voided. Refunds: void the same day,
// refund (1002) after the day end, markers recorded before the call.

const APPROVE = "4000001100000009";
const REFUND_DECLINED = "4000001500000005";

let h: AkbankHarness;
afterEach(async () => h?.close());

/** A bank whose order history answers 502 until `heal()`: the outcome stays unknown meanwhile. */
function historyDown() {
  let down = true;
  return {
    heal: () => {
      down = false;
    },
    transport: async (_url: string, init: RequestInit, send: () => Promise<Response>) =>
      down && txnCodeOf(init) === "1010" ? new Response("bad gateway", { status: 502 }) : send(),
  };
}

describe("issue 34: unknown sale outcomes are asked about (1010), never re-sent", () => {
  it.each([
    ["no answer within timeoutMs (.91)", 10_091],
    ["an HTML page (.93)", 10_093],
    ["garbage bytes (.94)", 10_094],
    ["truncated JSON (.95)", 10_095],
  ])("%s after the bank approved: the history finds it, captured, one sale", async (_name, amount) => {
    h = await akbankHarness();
    const p = await akbankPayment(h, "T-A3D", amount);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=captured");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(h.sent).toEqual(["1000", "1010"]);
  });

  it("HTTP 500 with nothing done at the bank (.92): VPS-1123 no record, failed, one sale", async () => {
    h = await akbankHarness();
    const p = await akbankPayment(h, "T-A3D", 10_092);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(h.sent).toEqual(["1000", "1010"]);
  });

  it("still unknown: the attempt stays open, the timer asks again (30 s), then the payment is captured", async () => {
    const history = historyDown();
    h = await akbankHarness({ transport: history.transport });
    const p = await akbankPayment(h, "T-A3D", 10_093);
    expect((await payAtBank(h, p.paymentRef, APPROVE)).leftTo).toContain("status=initiated");
    expect((await h.store.q.attempts.byPayment(p.paymentCode))[0]!.status).toBe("capturing");
    await h.advance(30 * SECOND_MS);
    expect(h.sent).toEqual(["1000", "1010", "1010"]);
    history.heal();
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["1000", "1010", "1010", "1010"]);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });

  it("the window closes while the sale is on the wire: expired, voided once (1003), no payment.captured", async () => {
    h = await akbankHarness({
      // The bank approves at once (its clock checks requestDateTime); the answer arrives late.
      transport: async (_url, init, send) => {
        const answer = await send();
        if (txnCodeOf(init) === "1000") await h.advance(30 * MINUTE_MS);
        return answer;
      },
    });
    const p = await akbankPayment(h, "T-A3D");
    await payAtBank(h, p.paymentRef, APPROVE);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.expired"]);
    expect(h.sent).toEqual(["1000", "1003"]);
    expect(h.log.lines.some((l) => l.includes("late capture voided"))).toBe(true);
  });
});

let seq = 0;
async function captured(amount = 10_000, pan = APPROVE, terminal = "T-A3D"): Promise<string> {
  const p = await akbankPayment(h, terminal, amount);
  const done = await payAtBank(h, p.paymentRef, pan);
  if (!done.leftTo?.includes("status=captured")) throw new Error(`not captured: ${done.leftTo}`);
  h.sent.length = 0;
  return p.paymentCode;
}
async function refund(code: string, method: "void" | "credit", body: Record<string, unknown> = {}) {
  const res = await h.post(`/v1/payments/${code}/refunds/${method}`, { partnerRefundCode: `A-${++seq}`, ...body });
  if (res.status !== 201) throw new Error(`refund: ${res.status} ${res.text}`);
  return (await h.get(`/v1/payments/${code}/refunds/${res.json.refundId}`)).json;
}

describe("issue 34: AkbankPos refunds", () => {
  it("void on the day of capture: 1003 once, approved, payment voided", async () => {
    h = await akbankHarness();
    const code = await captured();
    expect(await refund(code, "void")).toMatchObject({ status: "approved", method: "void", procReturnCode: "VPS-0000" });
    expect(h.sent).toEqual(["1003"]);
    expect((await paymentRow(h, code)).status).toBe("voided");
  });

  it("refund after the day end, in two parts: 1010 (marker) then 1002 each, both approved, payment refunded", async () => {
    h = await akbankHarness();
    const code = await captured(10_000);
    await h.advance(24 * HOUR_MS);
    expect(await refund(code, "credit", { amount: 4_000 })).toMatchObject({
      status: "approved",
      amount: 4_000,
      procReturnCode: "VPS-0000",
    });
    expect(await refund(code, "credit", { amount: 6_000 })).toMatchObject({ status: "approved", amount: 6_000 });
    expect(h.sent).toEqual(["1010", "1002", "1010", "1002"]);
    expect((await paymentRow(h, code)).status).toBe("refunded");
  });

  it("a card whose refunds the bank declines: declined with the bank's code and words", async () => {
    h = await akbankHarness();
    const code = await captured(10_000, REFUND_DECLINED);
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "declined", procReturnCode: "VPS-1005" });
    expect(r.errMsg).toContain("VPS-1005");
    expect((await paymentRow(h, code)).status).toBe("captured");
  });

  it("a void whose answer is lost (.93): pending with ?void, then the history shows V; 1003 never re-sent", async () => {
    h = await akbankHarness();
    const code = await captured(10_093, APPROVE, "T-APAY");
    const r = await refund(code, "void");
    expect(r).toMatchObject({ status: "pending", bankReference: null });
    expect((await h.store.q.refunds.get(r.refundId))?.bankReference).toBe("?void");
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["1003", "1010"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
    expect((await paymentRow(h, code)).status).toBe("voided");
  });

  it("a refund whose answer is lost (.95): pending, then the history shows one more refund: approved, never re-sent", async () => {
    h = await akbankHarness();
    const code = await captured(10_000, APPROVE, "T-APAY");
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 5_095 });
    expect(r.status).toBe("pending");
    expect((await h.store.q.refunds.get(r.refundId))?.bankReference).toBe("?refund:0");
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["1010", "1002", "1010"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("approved");
  });

  it("a refund the bank never received (.92, HTTP 500): pending, then declined (no refund at the bank)", async () => {
    h = await akbankHarness();
    const code = await captured(20_000, APPROVE, "T-APAY");
    await h.advance(24 * HOUR_MS);
    const r = await refund(code, "credit", { amount: 1_092 });
    expect(r.status).toBe("pending");
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["1010", "1002", "1010"]);
    expect((await h.store.q.refunds.get(r.refundId))?.status).toBe("declined");
    expect((await paymentRow(h, code)).status).toBe("captured");
  });

  it("payouts of an AkbankPos connection wait for an operator", async () => {
    h = await akbankHarness();
    await captured(10_000);
    await h.advance(3 * 24 * HOUR_MS);
    const batches = await h.store.q.settlement.pendingBatches();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ status: "pending", reference: null });
  });
});
