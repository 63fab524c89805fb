import { afterEach, describe, expect, it, vi } from "vitest";
import type { FetchLike } from "../../../src/domain/webhooks/deliver";
import { Slots } from "../../../src/domain/webhooks/slots";
import { ORPHAN_AFTER_MS } from "../../../src/domain/webhooks/worker";
import { WEBHOOK_CONCURRENCY, WEBHOOK_CONCURRENCY_PER_PARTNER } from "../../../src/limits";
import { harness, type Harness } from "../../support/harness";
import { delivery, enqueueOk, setWebhook, useWorker } from "./support";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

describe("product 11 bounded concurrency", () => {
  it(`never more than WEBHOOK_CONCURRENCY (${WEBHOOK_CONCURRENCY}) attempts in flight; all are delivered`, async () => {
    h = await harness();
    await setWebhook(h, "ptn_test", "https://hooks.partner.example/x");
    let inFlight = 0;
    let peak = 0;
    const fetchImpl: FetchLike = async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await tick(10);
      inFlight -= 1;
      return new Response("ok", { status: 200 });
    };
    // One partner here, so its own cap is lifted to see the shared one (the next test has several).
    const worker = useWorker(h, { fetchImpl, perPartner: WEBHOOK_CONCURRENCY });
    const ids: string[] = [];
    for (let i = 0; i < 3 * WEBHOOK_CONCURRENCY; i++) ids.push(await enqueueOk(h, { type: "payment.captured", paymentCode: `pay_${i}` }));
    await h.deps.timers.runDue();
    expect(peak).toBe(WEBHOOK_CONCURRENCY);
    for (const id of ids) expect((await delivery(h!, id))?.status).toBe("delivered");
    expect(worker.load).toEqual({ running: 0, waiting: 0 });
  });

  it(`product 23: one partner's hanging receiver holds at most ${WEBHOOK_CONCURRENCY_PER_PARTNER} slots; another partner's webhooks go out meanwhile`, async () => {
    h = await harness();
    await setWebhook(h, "ptn_test", "https://slow.partner.example/x");
    await setWebhook(h, "ptn_other", "https://fast.partner.example/x");
    let slowInFlight = 0;
    let slowPeak = 0;
    const hanging: Array<() => void> = [];
    const fast: string[] = [];
    const fetchImpl: FetchLike = async (url, init) => {
      if (String(url).includes("fast")) {
        fast.push(JSON.parse(String(init.body)).paymentCode);
        return new Response(null, { status: 204 });
      }
      slowInFlight += 1;
      slowPeak = Math.max(slowPeak, slowInFlight);
      await new Promise<void>((resolve) => hanging.push(resolve));
      slowInFlight -= 1;
      return new Response(null, { status: 204 });
    };
    useWorker(h, { fetchImpl });
    for (let i = 0; i < 2 * WEBHOOK_CONCURRENCY; i++) await enqueueOk(h, { type: "payment.captured", paymentCode: `slow_${i}` });
    for (let i = 0; i < 3; i++) await enqueueOk(h, { type: "payment.captured", paymentCode: `fast_${i}` }, "ptn_other");
    const run = h.deps.timers.runDue();
    for (let i = 0; i < 20 && fast.length < 3; i++) await tick(5);
    expect(fast).toEqual(["fast_0", "fast_1", "fast_2"]);
    expect(slowPeak).toBe(WEBHOOK_CONCURRENCY_PER_PARTNER);
    let done = false;
    void run.then(() => (done = true));
    while (!done) {
      for (const release of hanging.splice(0)) release();
      await tick(1);
    }
    expect(slowPeak).toBe(WEBHOOK_CONCURRENCY_PER_PARTNER);
  });

  it("a concurrency of 1 sends one at a time, in due order", async () => {
    h = await harness();
    await setWebhook(h, "ptn_test", "https://hooks.partner.example/x");
    const order: string[] = [];
    const fetchImpl: FetchLike = async (_url, init) => {
      order.push(JSON.parse(String(init.body)).paymentCode);
      return new Response(null, { status: 204 });
    };
    useWorker(h, { fetchImpl, concurrency: 1 });
    for (const code of ["a", "b", "c"]) await enqueueOk(h, { type: "payment.failed", paymentCode: code });
    await h.deps.timers.runDue();
    expect(order).toEqual(["a", "b", "c"]);
  });
});

describe("product 11 a failed write never strands a delivery", () => {
  it("a record unit that fails leaves the row in flight; it is sent again once orphaned, and recorded", async () => {
    h = await harness();
    await setWebhook(h, "ptn_test", "https://hooks.partner.example/x");
    let sent = 0;
    useWorker(h, { fetchImpl: async () => (sent++, new Response("ok")) });
    const id = await enqueueOk(h);
    const write = h.store.write.bind(h.store);
    let calls = 0;
    const spy = vi
      .spyOn(h.store, "write")
      .mockImplementation((unit) => (++calls === 2 ? Promise.reject(new Error("database is locked")) : write(unit)));
    await h.deps.timers.runDue();
    spy.mockRestore();
    expect(sent).toBe(1);
    expect(await delivery(h, id)).toMatchObject({ status: "pending", nextAttemptAtMs: null });
    expect(h.log.lines.some((line) => line.includes("timer failed") && line.includes("database is locked"))).toBe(true);
    await h.advance(ORPHAN_AFTER_MS);
    expect(sent).toBe(2);
    expect(await delivery(h, id)).toMatchObject({ status: "delivered", attempts: 1 });
  });
});

describe("Slots (the worker's semaphore)", () => {
  it("runs at most `size` tasks and hands a freed slot to the oldest waiter", async () => {
    const slots = new Slots(2);
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const task = (n: number) => () =>
      new Promise<void>((resolve) => {
        started.push(n);
        releases.push(resolve);
      });
    const all = [1, 2, 3, 4].map((n) => slots.run(task(n)));
    await tick();
    expect(started).toEqual([1, 2]);
    expect({ running: slots.running, waiting: slots.waiting }).toEqual({ running: 2, waiting: 2 });
    releases[0]!();
    await tick();
    expect(started).toEqual([1, 2, 3]);
    for (const release of releases.slice(1)) release();
    await tick();
    for (const release of releases.slice(3)) release();
    await Promise.all(all);
    expect({ running: slots.running, waiting: slots.waiting }).toEqual({ running: 0, waiting: 0 });
  });

  it("a task that throws still frees its slot", async () => {
    const slots = new Slots(1);
    await expect(slots.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await slots.run(async () => 7)).toBe(7);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses a size of %s", (size) => {
    expect(() => new Slots(size)).toThrow(RangeError);
  });
});
