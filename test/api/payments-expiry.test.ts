import { afterEach, describe, expect, it } from "vitest";
import { PAYMENT_EXPIRY_TIMER, paymentExpiryTimer } from "../../src/domain/payments/expiry";
import { MINUTE_MS } from "../../src/limits";
import { harness, pendingTimers, T0, type Harness } from "../support/harness";
import { answerAcs, createPayment, eventsOf, handOff, pageCode, paymentRow, seedWith } from "./payments-flow";

let h: Harness;
afterEach(async () => h?.close());

const WINDOW_MS = 30 * MINUTE_MS;

const deliveryOf = async (h: Harness, code: string) =>
  (await h.store.q.webhooks.list({ partnerId: "ptn_test", status: null, limit: 100 }))
    .map((d) => JSON.parse(d.body))
    .find((b) => b.paymentCode === code && b.type === "payment.expired");

describe("interface 3.2 initiated -> expired when the 3D window elapses (timer wheel, product 16)", () => {
  it("still initiated 1 ms before expiresAt; expired at exactly expiresAt, with payment.expired in the outbox", async () => {
    h = await harness();
    const c = await createPayment(h);
    await h.advance(WINDOW_MS - 1);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("initiated");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual([]);
    await h.advance(1);
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ status: "expired", updatedAtMs: T0 + WINDOW_MS });
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.expired"]);
    // occurredAt is the instant the expiry took effect, however late the wheel ran.
    expect((await deliveryOf(h, c.json.paymentCode)).occurredAt).toBe(new Date(T0 + WINDOW_MS).toISOString());
  });

  it("135 minutes on a terminal of the extended infrastructure", async () => {
    h = await harness({
      seed: seedWith({
        terminals: [
          {
            id: "T-EXT",
            partner: "ptn_test",
            connection: "vpos-1",
            installments: [1],
            infrastructure: "extended",
            rates: [{ count: 1, rateBps: 100 }],
          },
        ],
      }),
    });
    const c = await createPayment(h, { terminalId: "T-EXT" });
    await h.advance(135 * MINUTE_MS - 1);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("initiated");
    await h.advance(1);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
  });

  it("3D abandoned: the ACS page is never answered; the window expires the payment and closes the attempt", async () => {
    h = await harness();
    const c = await createPayment(h);
    const acs = await handOff(h, c.json.paymentRef, "4000001100000009");
    expect(acs.page?.status).toBe(200);
    await h.advance(WINDOW_MS);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
    expect((await h.store.q.attempts.byPayment(c.json.paymentCode)).map((a) => a.status)).toEqual(["failed"]);
    // A late answer from the ACS is refused and changes nothing.
    h.clock.set(T0 + 5 * MINUTE_MS); // even a token still within its own deadline
    const late = await answerAcs(h, acs);
    expect(late.page?.status).toBe(400);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.expired"]);
  });

  it("a captured payment does not expire", async () => {
    h = await harness();
    const c = await createPayment(h);
    const acs = await handOff(h, c.json.paymentRef, "4000001100000009");
    await answerAcs(h, acs);
    await h.advance(WINDOW_MS);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.captured"]);
  });

  it("the timer is at-least-once: a duplicate does nothing, an early one is put back on the wheel", async () => {
    h = await harness();
    const c = await createPayment(h);
    const fire = paymentExpiryTimer.handler(h.deps);
    await fire(c.json.paymentCode, T0); // early: now < expiresAt
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("initiated");
    h.clock.set(T0 + WINDOW_MS);
    await fire(c.json.paymentCode, T0 + WINDOW_MS);
    await fire(c.json.paymentCode, T0 + WINDOW_MS);
    await h.advance(0);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.expired"]);
  });

  it("the wheel is rebuilt from the database: every initiated payment and its expiresAt", async () => {
    h = await harness();
    const a = await createPayment(h);
    h.clock.advance(MINUTE_MS);
    const b = await createPayment(h);
    await handOff(h, b.json.paymentRef, "4000008800000007").then(async (acs) => answerAcs(h, acs)); // b fails
    expect(await pendingTimers(paymentExpiryTimer, h.deps)).toEqual([{ key: a.json.paymentCode, dueAtMs: T0 + WINDOW_MS }]);
    expect(paymentExpiryTimer.kind).toBe(PAYMENT_EXPIRY_TIMER);
  });

  it("a handoff after the window answers payment_ref_expired and expires the payment (product 6.2)", async () => {
    h = await harness();
    const c = await createPayment(h);
    h.clock.set(T0 + WINDOW_MS); // the timer has not run
    const r = await handOff(h, c.json.paymentRef, "4000001100000009");
    expect([r.page?.status, pageCode(r.page!.body)]).toEqual([404, "payment_ref_expired"]);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.expired"]);
  });
});
