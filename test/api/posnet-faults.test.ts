import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS, SECOND_MS } from "../../src/limits";
import { eventsOf, paymentRow } from "./payments-flow";
import { APPROVE, posnetHarness, posnetPayment, payAtBank, type PosnetHarness } from "./posnet-flow";

// Issue 33: a bank that answers oosTranData with HTML, 500, garbage, truncated XML, nothing within
// timeoutMs, or `approved 2`. The outcome is asked about (agreement), never by sending oosTranData
// again; what the bank did is what kasa records; a charge approved too late is voided.

let h: PosnetHarness;
afterEach(async () => h?.close());

const CHARGE = ["oosRequestData", "oosResolveMerchantData", "oosTranData"];

/** A bank whose agreement answers 502 until `heal()`: the outcome stays unknown meanwhile. */
function statusQueries() {
  let down = true;
  return {
    heal: () => {
      down = false;
    },
    transport: async (_url: string, init: RequestInit, send: () => Promise<Response>) =>
      down && (init.body as string).includes("agreement") ? new Response("bad gateway", { status: 502 }) : send(),
  };
}

describe("issue 33: unknown charge outcomes are asked about, never re-sent", () => {
  it.each([
    ["no answer within timeoutMs (.91)", 10_091],
    ["an HTML page (.93)", 10_093],
    ["garbage bytes (.94)", 10_094],
    ["truncated XML (.95)", 10_095],
  ])("%s after the bank charged: agreement finds the sale, captured, one oosTranData", async (_name, amount) => {
    h = await posnetHarness();
    const p = await posnetPayment(h, amount);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=captured");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(h.sent).toEqual([...CHARGE, "agreement"]);
  });

  it("HTTP 500 with nothing done at the bank (.92): agreement has no record (0123), failed, one oosTranData", async () => {
    h = await posnetHarness();
    const p = await posnetPayment(h, 10_092);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(h.sent).toEqual([...CHARGE, "agreement"]);
  });

  it("approved 2 (0127, already processed) is neither success nor failure: agreement is asked and finds the sale", async () => {
    h = await posnetHarness({
      // Someone else's copy of the charge reached the bank first: kasa's own gets `approved 2`.
      transport: async (_url, init, send) => {
        if (!(init.body as string).includes("oosTranData")) return send();
        await send();
        return send();
      },
    });
    const p = await posnetPayment(h);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=captured");
    // An approved answer would need no agreement: the one after oosTranData shows it was asked about.
    expect(h.sent).toEqual([...CHARGE, "agreement"]);
  });

  it("still unknown: the attempt stays open, the timer asks again (30 s), and then the payment is captured", async () => {
    const status = statusQueries();
    h = await posnetHarness({ transport: status.transport });
    const p = await posnetPayment(h, 10_093);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=initiated");
    expect((await h.store.q.attempts.byPayment(p.paymentCode))[0]!.status).toBe("capturing");
    await h.advance(30 * SECOND_MS);
    expect(h.sent).toEqual([...CHARGE, "agreement", "agreement"]);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    status.heal();
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual([...CHARGE, "agreement", "agreement", "agreement"]);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });
});

describe("issue 33: a charge approved after the window closed is voided automatically", () => {
  it("the window closes while oosTranData is on the wire: expired, reverse sent once, no payment.captured", async () => {
    h = await posnetHarness({
      transport: async (_url, init, send) => {
        if ((init.body as string).includes("oosTranData")) await h.advance(30 * MINUTE_MS);
        return send();
      },
    });
    const p = await posnetPayment(h);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.expired"]);
    expect(h.sent).toEqual([...CHARGE, "reverse"]);
  });

  it("the window closes while the outcome is unknown; the bank charged: expired, and the charge is reversed (asked about, not re-sent)", async () => {
    const status = statusQueries();
    h = await posnetHarness({ transport: status.transport });
    const p = await posnetPayment(h, 10_093);
    await payAtBank(h, p.paymentRef, APPROVE);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    status.heal();
    await h.advance(60 * MINUTE_MS);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.expired"]);
    expect(h.trans()).toBe(1);
    // The reverse of 100.93 TL gets the simulator's .93 answer (HTML) too: asked about, not re-sent.
    expect(h.sent.filter((t) => t === "reverse")).toHaveLength(1);
    await h.advance(1 * MINUTE_MS);
    expect(h.sent.filter((t) => t === "reverse")).toHaveLength(1);
    expect(h.sent.at(-1)).toBe("agreement");
    const attempt = (await h.store.q.attempts.byPayment(p.paymentCode))[0]!;
    expect(await h.store.q.bank.check(attempt.id)).toMatchObject({ kind: "void", outcome: "voided", dueAtMs: null });
  });
});
