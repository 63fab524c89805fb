import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS, SECOND_MS } from "../../src/limits";
import { eventsOf, paymentRow } from "./payments-flow";
import { type GarantiHarness, garantiHarness, garantiPayment, payAtBank, typeOf } from "./garanti-flow";

// Issue 31: a Garanti bank that answers HTML, 500, garbage or truncated XML, or nothing within
// timeoutMs. The outcome is asked about (`orderinq`), never by sending `sales` again; what the
// bank did is what kasa records; a charge approved too late is voided. No card data reaches the
// database or the log.

const APPROVE = "4000001100000009";

let h: GarantiHarness;
afterEach(async () => h?.close());

/** A bank whose orderinq answers 502 until `heal()`: the outcome stays unknown meanwhile. */
function statusQueries() {
  let down = true;
  return {
    heal: () => {
      down = false;
    },
    transport: async (_url: string, init: RequestInit, send: () => Promise<Response>) =>
      down && typeOf(init) === "orderinq" ? new Response("bad gateway", { status: 502 }) : send(),
  };
}

describe("issue 31: unknown provision outcomes are asked about, never re-sent", () => {
  it.each([
    ["no answer within timeoutMs (.91)", 10_091],
    ["an HTML page (.93)", 10_093],
    ["garbage bytes (.94)", 10_094],
    ["XML cut inside <Response> (.95)", 10_095],
  ])("%s after the bank approved: orderinq finds it, captured, one sales", async (_name, amount) => {
    h = await garantiHarness();
    const p = await garantiPayment(h, "T-G3D", amount);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=captured");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect((await paymentRow(h, p.paymentCode)).bankReference).toMatch(/^att\w+:\d{12}$/);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(h.sent).toEqual(["sales", "orderinq"]);
  });

  it("HTTP 500 with nothing done at the bank (.92): orderinq has no record, failed, one sales", async () => {
    h = await garantiHarness();
    const p = await garantiPayment(h, "T-G3D", 10_092);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(h.sent).toEqual(["sales", "orderinq"]);
  });

  it("still unknown: the attempt stays open, the timer asks again (30 s), and then the payment is captured", async () => {
    const status = statusQueries();
    h = await garantiHarness({ transport: status.transport });
    const p = await garantiPayment(h, "T-G3D", 10_093);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=initiated");
    expect((await h.store.q.attempts.byPayment(p.paymentCode))[0]!.status).toBe("capturing");
    await h.advance(30 * SECOND_MS);
    expect(h.sent).toEqual(["sales", "orderinq", "orderinq"]);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    status.heal();
    await h.advance(2 * MINUTE_MS);
    expect(h.sent).toEqual(["sales", "orderinq", "orderinq", "orderinq"]);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });

  it("the window closes while the outcome is unknown; the bank approved: expired, the charge voided once", async () => {
    const status = statusQueries();
    h = await garantiHarness({ transport: status.transport });
    const p = await garantiPayment(h, "T-G3D", 10_093);
    await payAtBank(h, p.paymentRef, APPROVE);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    status.heal();
    await h.advance(60 * MINUTE_MS);
    await h.advance(1 * MINUTE_MS);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.expired"]);
    expect(h.sales()).toBe(1);
    // The void of 100.93 TL gets the simulator's .93 answer (HTML) too: asked about, not re-sent.
    expect(h.sent.filter((t) => t === "void")).toHaveLength(1);
    const attempt = (await h.store.q.attempts.byPayment(p.paymentCode))[0]!;
    expect(await h.store.q.bank.check(attempt.id)).toMatchObject({ kind: "void", outcome: "voided", dueAtMs: null });
  });

  it("the window closes while sales is on the wire: expired, void sent once, no payment.captured", async () => {
    h = await garantiHarness({
      transport: async (_url, init, send) => {
        if (typeOf(init) === "sales") await h.advance(30 * MINUTE_MS);
        return send();
      },
    });
    const p = await garantiPayment(h, "T-G3D");
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.expired"]);
    expect(h.sent).toEqual(["sales", "void"]);
  });

  it("no card number, expiry or CVV in the database or the log after a payment and its faults", async () => {
    h = await garantiHarness();
    const p = await garantiPayment(h, "T-G3D", 10_095);
    await payAtBank(h, p.paymentRef, APPROVE);
    expect(h.log.lines.join("\n")).not.toContain(APPROVE);
    const dump = JSON.stringify([await h.store.q.attempts.byPayment(p.paymentCode), await paymentRow(h, p.paymentCode)]);
    expect(dump).not.toContain(APPROVE);
    // The CVV as a value of its own: the bank's random references and auth codes may contain the
    // three digits inside a longer run of digits (1 run in ~70 did: a flake, not card data).
    expect(dump).not.toMatch(/(?<!\d)857(?!\d)/);
  });
});
