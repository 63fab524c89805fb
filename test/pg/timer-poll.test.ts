import { afterEach, describe, expect, inject, it } from "vitest";
import { ManualClock } from "../../src/clock";
import { LINK_VALIDITY_MS, MINUTE_MS, SECOND_MS, THREE_D_WINDOW_STANDARD_MS, TIMER_POLL_INTERVAL_MS } from "../../src/limits";
import { TEST_SEED } from "../support/fixtures";
import { T0 } from "../support/harness";
import { kasaProcess, type KasaProcess } from "../support/kasa-process";
import { freshDatabase } from "../support/pg-cluster";

// Product 22: every instance keeps its own timer heap, and on a shared database also polls it for
// due rows it did not schedule: what another instance created (and will never fire, it stopped),
// and a sandbox clock another instance moved.

const running: KasaProcess[] = [];
const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const k of running.splice(0)) await k.close();
  for (const drop of drops.splice(0)) await drop();
});

async function twoInstances(mode: "serve" | "sandbox" = "serve") {
  const db = await freshDatabase(inject("pgUrl"));
  drops.push(db.drop);
  const clock = new ManualClock(T0);
  const a = await kasaProcess({ path: db.url, clock, seed: TEST_SEED, mode });
  const b = await kasaProcess({ path: db.url, clock, mode });
  running.push(a, b);
  return { a, b, clock };
}

const newPayment = async (k: KasaProcess, partnerTxCode: string) => {
  const r = await k.post("/v1/payments", { amount: 10_000, partnerTxCode, terminalId: "T-1", returnUrl: "https://shop.example/done" });
  expect(r.status).toBe(201);
  return r.json.paymentCode as string;
};

describe("product 22: timers across instances on PostgreSQL", () => {
  it("a payment created on an instance that then stopped is expired by the other one's poll", async () => {
    const { a, b } = await twoInstances();
    const code = await newPayment(a, "poll-1");
    running.splice(running.indexOf(a), 1);
    await a.close();
    // b never scheduled it; its poll finds it due. (Read from the store: a GET would expire it itself.)
    await b.advance(THREE_D_WINDOW_STANDARD_MS - SECOND_MS);
    expect((await b.store.q.payments.get(code))?.status).toBe("initiated");
    await b.advance(SECOND_MS + TIMER_POLL_INTERVAL_MS);
    expect((await b.store.q.payments.get(code))?.status).toBe("expired");
  });

  it("a payment link created on an instance that then stopped is expired by the other one's poll", async () => {
    const { a, b } = await twoInstances();
    const r = await a.post("/v1/payment-links", { amount: 10_000, terminalId: "T-1" });
    expect(r.status).toBe(201);
    running.splice(running.indexOf(a), 1);
    await a.close();
    await b.advance(LINK_VALIDITY_MS - SECOND_MS);
    expect((await b.store.q.links.get(r.json.id))?.status).toBe("pending");
    await b.advance(SECOND_MS + TIMER_POLL_INTERVAL_MS);
    expect((await b.store.q.links.get(r.json.id))?.status).toBe("expired");
  });

  it("a row both instances fire changes once: one payment.expired webhook, not two", async () => {
    const { a, b, clock } = await twoInstances();
    const code = await newPayment(a, "poll-2");
    clock.advance(THREE_D_WINDOW_STANDARD_MS + TIMER_POLL_INTERVAL_MS);
    await Promise.all([a.runDue(), b.runDue()]);
    expect((await b.get(`/v1/payments/${code}`)).json.status).toBe("expired");
    const events = await b.store.q.webhooks.list({ partnerId: "ptn_test", status: null, limit: 100 });
    expect(events.filter((e) => e.type === "payment.expired")).toHaveLength(1);
  });

  it("a sandbox instance follows a clock move another instance made (the offset lives in the database)", async () => {
    const { a, b } = await twoInstances("sandbox");
    const before = Date.parse((await b.get("/sandbox/clock")).json.now);
    expect((await a.post("/sandbox/clock", { advanceSeconds: 3600 })).status).toBe(200);
    await b.advance(TIMER_POLL_INTERVAL_MS);
    const after = Date.parse((await b.get("/sandbox/clock")).json.now);
    expect(after - before).toBeGreaterThanOrEqual(60 * MINUTE_MS + TIMER_POLL_INTERVAL_MS);
    expect(after - before).toBeLessThan(60 * MINUTE_MS + TIMER_POLL_INTERVAL_MS + SECOND_MS);
  });
});
