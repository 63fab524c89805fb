import { describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, WEBHOOK_RETRY_DELAYS_MS } from "../../src/limits";
import { T0, type Harness } from "../support/harness";
import { closedPort, startReceiver, type Receiver } from "../unit/webhooks/receiver";
import { attempts, delivery, enqueueOk, SECRET, setWebhook, useReceiverHarness, useWorker } from "../unit/webhooks/support";

let receiver: Receiver;
let h: Harness;

useReceiverHarness((ready) => ({ receiver, h } = ready));

const runDue = () => h.deps.timers.runDue();
// A short deadline through the worker's option; the 5 s default is the same code path.
const SHORT_TIMEOUT_MS = 150;

describe("interface 6.4 / product 11 retry schedule, walked on the manual clock", () => {
  it("5xx every time: attempts at exactly +30 s, +2 min, +10 min, +1 h, +6 h after each failure, then dropped", async () => {
    receiver.script(...Array.from({ length: 6 }, () => ({ status: 503 })));
    const id = await enqueueOk(h);
    await runDue();
    const expectedStarts = [T0];
    for (const delayMs of WEBHOOK_RETRY_DELAYS_MS) {
      const sent = receiver.deliveries.length;
      await h.advance(delayMs - 1);
      expect(receiver.deliveries).toHaveLength(sent); // not a millisecond early
      await h.advance(1);
      expect(receiver.deliveries).toHaveLength(sent + 1);
      expectedStarts.push(h.clock.nowMs());
    }
    expect(expectedStarts.map((t) => t - T0)).toEqual([
      0,
      30 * SECOND_MS,
      150 * SECOND_MS,
      750 * SECOND_MS,
      4350 * SECOND_MS,
      25_950 * SECOND_MS,
    ]);
    expect((await attempts(h, id)).map((a) => [a.n, a.startedAtMs, a.outcome, a.httpStatus])).toEqual(
      expectedStarts.map((t, i) => [i + 1, t, "retry", 503]),
    );
    expect(await delivery(h, id)).toMatchObject({ status: "dropped", attempts: 6, nextAttemptAtMs: null, firstAttemptAtMs: T0 });
    await h.advance(2 * DAY_MS);
    expect(receiver.deliveries).toHaveLength(6);
  });

  it("every retry carries the same bytes, delivery id and timestamp (interface 6.3)", async () => {
    receiver.script({ status: 500 }, { status: 502 });
    await enqueueOk(h);
    await runDue();
    await h.advance(30 * SECOND_MS);
    await h.advance(2 * MINUTE_MS);
    expect(receiver.deliveries).toHaveLength(3);
    const [first, ...rest] = receiver.deliveries;
    for (const later of rest) {
      expect(later.rawBody).toBe(first!.rawBody);
      expect(later.verified).toBe(true);
      for (const header of ["x-service-timestamp", "x-service-delivery-id", "x-service-signature", "x-legacy-timestamp"]) {
        expect(later.headers[header]).toBe(first!.headers[header]);
      }
    }
    expect(first!.headers["x-service-timestamp"]).toBe(String(Math.floor(T0 / 1000)));
  });

  it("a success ends the schedule: nothing is sent after it", async () => {
    receiver.script({ status: 500 }, { status: 500 }, { status: 200 });
    const id = await enqueueOk(h);
    await runDue();
    await h.advance(30 * SECOND_MS);
    await h.advance(2 * MINUTE_MS);
    await h.advance(2 * DAY_MS);
    expect(receiver.deliveries).toHaveLength(3);
    expect((await delivery(h, id))?.status).toBe("delivered");
    expect((await attempts(h, id)).map((a) => a.outcome)).toEqual(["retry", "retry", "delivered"]);
  });

  it("a 4xx after retries is still final", async () => {
    receiver.script({ status: 503 }, { status: 404 });
    const id = await enqueueOk(h);
    await runDue();
    await h.advance(30 * SECOND_MS);
    await h.advance(2 * DAY_MS);
    expect(receiver.deliveries).toHaveLength(2);
    expect((await delivery(h, id))?.status).toBe("failed");
  });
});

describe("interface 6.4 timeout and network errors are retried", () => {
  it("a receiver slower than the deadline counts as a timeout and is retried 30 s later", async () => {
    useWorker(h, { timeoutMs: SHORT_TIMEOUT_MS });
    receiver.script({ status: 200, delayMs: 600 });
    const id = await enqueueOk(h);
    const started = performance.now();
    await runDue();
    expect(performance.now() - started).toBeLessThan(500);
    expect(await attempts(h, id)).toMatchObject([
      { n: 1, outcome: "retry", httpStatus: null, error: `timeout after ${SHORT_TIMEOUT_MS} ms` },
    ]);
    expect(await delivery(h, id)).toMatchObject({ status: "pending", nextAttemptAtMs: T0 + 30 * SECOND_MS });
    await h.advance(30 * SECOND_MS);
    expect((await delivery(h, id))?.status).toBe("delivered");
  });

  it("connection refused is retried", async () => {
    await setWebhook(h, "ptn_test", `http://127.0.0.1:${await closedPort()}/hooks`);
    const id = await enqueueOk(h);
    await runDue();
    expect((await attempts(h, id))[0]).toMatchObject({ outcome: "retry", httpStatus: null });
    expect((await attempts(h, id))[0]!.error).toMatch(/^connection error: /);
    expect((await delivery(h, id))?.nextAttemptAtMs).toBe(T0 + 30 * SECOND_MS);
  });
});

describe("interface 6.4 nothing is sent later than 24 h after the first attempt", () => {
  it("a retry picked up after the window (service was down) is dropped unsent", async () => {
    receiver.script({ status: 503 });
    const id = await enqueueOk(h);
    await runDue();
    h.clock.set(T0 + DAY_MS + 1);
    await runDue();
    expect(receiver.deliveries).toHaveLength(1);
    expect(await delivery(h, id)).toMatchObject({ status: "dropped", attempts: 1 });
    expect(await attempts(h, id)).toHaveLength(1);
  });

  it("a late attempt inside the window is sent; a retry that would land past it is not scheduled", async () => {
    receiver.script({ status: 503 }, { status: 503 });
    const id = await enqueueOk(h);
    await runDue();
    h.clock.set(T0 + DAY_MS - MINUTE_MS);
    await runDue();
    expect(receiver.deliveries).toHaveLength(2);
    expect(await delivery(h, id)).toMatchObject({ status: "dropped", attempts: 2, nextAttemptAtMs: null });
    await h.advance(HOUR_MS);
    expect(receiver.deliveries).toHaveLength(2);
  });
});

describe("product 11 a slow receiver never stalls the API or other deliveries", () => {
  it("while one receiver hangs, another partner's delivery arrives and the API answers", async () => {
    const fast = await startReceiver({ secret: SECRET });
    try {
      useWorker(h, { timeoutMs: 400 });
      await setWebhook(h, "ptn_other", fast.url);
      receiver.script({ status: 200, delayMs: 5_000 });
      const slowId = await enqueueOk(h);
      const fastId = await enqueueOk(h, { type: "webhook.test" }, "ptn_other");
      const started = performance.now();
      const running = runDue();
      while (fast.deliveries.length === 0) await new Promise((r) => setTimeout(r, 5));
      expect(performance.now() - started).toBeLessThan(300);
      expect((await h.get("/v1/payment-acceptance")).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(350);
      await running;
      // The hanging one is bounded by the deadline, not by the receiver.
      expect(performance.now() - started).toBeLessThan(1_500);
      expect((await delivery(h, fastId))?.status).toBe("delivered");
      expect((await attempts(h, slowId))[0]).toMatchObject({ outcome: "retry", error: "timeout after 400 ms" });
    } finally {
      await fast.close();
    }
  });
});
