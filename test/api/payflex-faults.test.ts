import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS, SECOND_MS } from "../../src/limits";
import { eventsOf, paymentRow } from "./payments-flow";
import { payAtBank, payflexHarness, payflexPayment, type PayflexHarness } from "./payflex-flow";

// Issue 35: a VPOS that answers HTML, 500, truncated XML, nothing within timeoutMs, or a 0000 for
// another order. The outcome is asked about (Search), never by sending the Sale again; what the
// bank did is what kasa records; a charge approved too late is voided.

const APPROVE = "4000001100000009";

let h: PayflexHarness;
afterEach(async () => h?.close());

describe("issue 35: unknown Sale outcomes are asked about, never re-sent", () => {
  it.each([
    ["no answer within timeoutMs (.91)", 10_091],
    ["HTTP 500 (.92)", 10_092],
    ["XML cut before <ResultCode> (.93)", 10_093],
  ])("%s after the bank approved: Search finds it, captured, one Sale", async (_name, amount) => {
    h = await payflexHarness();
    const p = await payflexPayment(h, amount);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=captured");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(h.kinds()).toEqual(["enrollment", "Sale", "Search"]);
  });

  it("an HTML 'Request Rejected' page with nothing recorded (.94): Search has no record, failed, one Sale", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h, 10_094);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(h.kinds()).toEqual(["enrollment", "Sale", "Search"]);
  });

  it("500 and Search down for 20 s (.95): pending, the timer asks again at 30 s and records the capture", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h, 10_095);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=initiated");
    expect((await h.store.q.attempts.byPayment(p.paymentCode))[0]!.status).toBe("capturing");
    await h.advance(29 * SECOND_MS);
    expect(h.kinds()).toEqual(["enrollment", "Sale", "Search"]);
    await h.advance(1 * SECOND_MS);
    expect(h.kinds()).toEqual(["enrollment", "Sale", "Search", "Search"]);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });

  it("garbage bytes after the bank approved: not UTF-8 XML, Search finds the sale, captured, one Sale", async () => {
    h = await payflexHarness({
      transport: async (_url, init, send) => {
        if (!String(init.body).includes("%3CTransactionType%3ESale")) return send();
        await send();
        return new Response(Uint8Array.from([0x00, 0xff, 0x1f, 0x8b, 0x3c, 0xfe, 0x9d, 0x00, 0x41, 0x7f, 0xc3, 0x28]));
      },
    });
    const p = await payflexPayment(h);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=captured");
    expect(h.kinds()).toEqual(["enrollment", "Sale", "Search"]);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });

  it("a 0000 for another order (a misrouted answer): unknown, Search decides (no record: failed)", async () => {
    h = await payflexHarness({
      transport: async (_url, init, send) => {
        if (!String(init.body).includes("%3CTransactionType%3ESale")) return send();
        return new Response(
          "<VposResponse><TransactionType>Sale</TransactionType><TransactionId>att-other</TransactionId><ResultCode>0000</ResultCode><OrderId>att-other</OrderId><CurrencyAmount>100.00</CurrencyAmount></VposResponse>",
        );
      },
    });
    const p = await payflexPayment(h);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect(h.kinds()).toEqual(["enrollment", "Sale", "Search"]);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
  });

  it("the window closes while the Sale is on the wire: expired, Cancel sent once, no payment.captured", async () => {
    h = await payflexHarness({
      transport: async (_url, init, send) => {
        if (String(init.body).includes("%3CTransactionType%3ESale")) await h.advance(30 * MINUTE_MS);
        return send();
      },
    });
    const p = await payflexPayment(h);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.expired"]);
    expect(h.kinds()).toEqual(["enrollment", "Sale", "Cancel"]);
  });

  it("the window closes while Search cannot say (.95); the bank approved: the payment expires and the charge is cancelled", async () => {
    let searchDown = true;
    h = await payflexHarness({
      transport: async (url, _init, send) => (searchDown && url.includes("Search") ? new Response("bad gateway", { status: 502 }) : send()),
    });
    const p = await payflexPayment(h, 10_092);
    await payAtBank(h, p.paymentRef, APPROVE);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    searchDown = false;
    await h.advance(60 * MINUTE_MS);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.expired"]);
    expect(h.sales()).toBe(1);
    expect(h.kinds().filter((k) => k === "Cancel")).toHaveLength(1);
    const attempt = (await h.store.q.attempts.byPayment(p.paymentCode))[0]!;
    expect(await h.store.q.bank.check(attempt.id)).toMatchObject({ kind: "void", outcome: "voided" });
  });
});
