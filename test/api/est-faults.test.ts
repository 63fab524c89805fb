import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS, SECOND_MS } from "../../src/limits";
import { eventsOf, paymentRow } from "./payments-flow";
import { estHarness, estPayment, payAtBank, type EstHarness } from "./est-flow";

// Product 17 / issue 16: a bank that answers HTML, 500, garbage or truncated XML, or nothing
// within timeoutMs. The outcome is asked about (ORDERSTATUS), never by sending Auth again; what
// the bank did is what kasa records; a charge approved too late is voided.

const APPROVE = "4000001100000009";

let h: EstHarness;
afterEach(async () => h?.close());

const types = () => h.sent.map((s) => s.type);

/** A bank whose ORDERSTATUS answers 502 until `heal()`: the outcome stays unknown meanwhile. */
function statusQueries() {
  let down = true;
  return {
    heal: () => {
      down = false;
    },
    transport: async (_url: string, init: RequestInit, send: () => Promise<Response>) => {
      const body = new TextDecoder("latin1").decode(init.body as Uint8Array);
      if (down && /ORDERSTATUS/.test(body)) return new Response("bad gateway", { status: 502 });
      return send();
    },
  };
}

describe("product 17: unknown capture outcomes are asked about, never re-sent", () => {
  it.each([
    ["no answer within timeoutMs (.91)", 10_091],
    ["an HTML page (.93)", 10_093],
    ["garbage bytes (.94)", 10_094],
    ["truncated XML (.95)", 10_095],
  ])("%s after the bank approved: ORDERSTATUS finds it, captured, one Auth", async (_name, amount) => {
    h = await estHarness();
    const p = await estPayment(h, "T-E3D", amount);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=captured");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(types()).toEqual(["Auth", "ORDERSTATUS"]);
  });

  it("HTTP 500 with nothing done at the bank (.92): ORDERSTATUS has no record, failed, one Auth", async () => {
    h = await estHarness();
    const p = await estPayment(h, "T-E3D", 10_092);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(types()).toEqual(["Auth", "ORDERSTATUS"]);
  });

  it("still unknown: the attempt stays open, the timer asks again (30 s), and then the payment is captured", async () => {
    const status = statusQueries();
    h = await estHarness({ transport: status.transport });
    const p = await estPayment(h, "T-E3D", 10_093);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=initiated");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    expect((await h.store.q.attempts.byPayment(p.paymentCode))[0]!.status).toBe("capturing");
    await h.advance(29 * SECOND_MS);
    expect(types()).toEqual(["Auth", "ORDERSTATUS"]);
    await h.advance(1 * SECOND_MS);
    expect(types()).toEqual(["Auth", "ORDERSTATUS", "ORDERSTATUS"]);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    status.heal();
    await h.advance(2 * MINUTE_MS);
    expect(types()).toEqual(["Auth", "ORDERSTATUS", "ORDERSTATUS", "ORDERSTATUS"]);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });

  it("the window closes while the outcome is unknown; the bank approved: the payment expires and the charge is voided", async () => {
    const status = statusQueries();
    h = await estHarness({ transport: status.transport });
    const p = await estPayment(h, "T-E3D", 10_093);
    await payAtBank(h, p.paymentRef, APPROVE);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    status.heal();
    await h.advance(60 * MINUTE_MS);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.expired"]);
    expect(types().filter((t) => t === "Auth")).toHaveLength(1);
    // The Void of 100.93 TL gets the simulator's .93 answer (HTML) too: asked about, not re-sent.
    expect(types().filter((t) => t === "Void")).toHaveLength(1);
    await h.advance(1 * MINUTE_MS);
    expect(types().filter((t) => t === "Void")).toHaveLength(1);
    expect(types().at(-1)).toBe("ORDERSTATUS");
    const attempt = (await h.store.q.attempts.byPayment(p.paymentCode))[0]!;
    expect(await h.store.q.bank.check(attempt.id)).toMatchObject({ kind: "void", outcome: "voided", dueAtMs: null });
    expect(h.log.lines.some((l) => l.includes("late capture voided"))).toBe(true);
  });
});

describe("product 17: a capture approved after the window closed is voided automatically", () => {
  it("the window closes while Auth is on the wire: expired, Void sent once, no payment.captured", async () => {
    h = await estHarness({
      transport: async (_url, init, send) => {
        const body = new TextDecoder("latin1").decode(init.body as Uint8Array);
        if (/<Type>Auth<\/Type>/.test(body)) await h.advance(30 * MINUTE_MS);
        return send();
      },
    });
    const p = await estPayment(h, "T-E3D");
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.expired"]);
    expect(types()).toEqual(["Auth", "Void"]);
  });
});
