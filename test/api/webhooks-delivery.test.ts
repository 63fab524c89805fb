import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import type { OutboxEvent } from "../../src/domain/webhooks/outbox";
import { DAY_MS } from "../../src/limits";
import { T0, type Harness } from "../support/harness";
import type { Receiver } from "../unit/webhooks/receiver";
import { attempts, delivery, enqueue, enqueueOk, SECRET, setWebhook, useReceiverHarness } from "../unit/webhooks/support";

let receiver: Receiver;
let h: Harness;

useReceiverHarness((ready) => ({ receiver, h } = ready));

const runDue = () => h.deps.timers.runDue();

describe("interface 6.1 / 6.2 every event type arrives with its thin body", () => {
  it.each<[OutboxEvent, Record<string, string>]>([
    [{ type: "payment.captured", paymentCode: "pay_a" }, { paymentCode: "pay_a" }],
    [{ type: "payment.failed", paymentCode: "pay_b" }, { paymentCode: "pay_b" }],
    [{ type: "payment.expired", paymentCode: "pay_c" }, { paymentCode: "pay_c" }],
    [{ type: "refund.approved", paymentCode: "pay_d" }, { paymentCode: "pay_d" }],
    [{ type: "refund.declined", paymentCode: "pay_e" }, { paymentCode: "pay_e" }],
    [
      { type: "payout.paid_out", payoutBatchId: "pob_1" },
      { payoutBatchId: "pob_1", partnerId: "ptn_test" },
    ],
    [
      { type: "payout.failed", payoutBatchId: "pob_2" },
      { payoutBatchId: "pob_2", partnerId: "ptn_test" },
    ],
    [{ type: "payment_link.completed", paymentLinkId: "pl_1" }, { paymentLinkId: "pl_1" }],
    [{ type: "payment_link.expired", paymentLinkId: "pl_2" }, { paymentLinkId: "pl_2" }],
    [{ type: "webhook.test" }, {}],
  ])("%o", async (event, extra) => {
    const id = await enqueueOk(h, event);
    await runDue();
    expect(receiver.deliveries).toHaveLength(1);
    const got = receiver.deliveries[0]!;
    // Key order included: the exact bytes of 6.2, common fields first.
    expect(JSON.parse(got.rawBody)).toStrictEqual({ id, type: event.type, occurredAt: new Date(T0).toISOString(), ...extra });
    expect(Object.keys(JSON.parse(got.rawBody))).toEqual(["id", "type", "occurredAt", ...Object.keys(extra)]);
    expect(got.rawBody).toBe((await delivery(h, id))!.body);
    expect(await delivery(h, id)).toMatchObject({ status: "delivered", attempts: 1, nextAttemptAtMs: null, firstAttemptAtMs: T0 });
  });
});

describe("interface 6.3 delivery headers and signature", () => {
  it("both header sets carry identical values; the signature verifies independently (node:crypto)", async () => {
    const id = await enqueueOk(h);
    await runDue();
    const got = receiver.deliveries[0]!;
    expect(got).toMatchObject({ method: "POST", verified: true, legacyVerified: true });
    const expected = `sha256=${createHmac("sha256", SECRET).update(Buffer.from(got.rawBody, "utf8")).digest("hex")}`;
    expect(got.headers["x-service-signature"]).toBe(expected);
    for (const suffix of ["signature", "timestamp", "delivery-id"]) {
      expect(got.headers[`x-legacy-${suffix}`]).toBe(got.headers[`x-service-${suffix}`]);
    }
    expect(got.headers["x-service-delivery-id"]).toBe(id);
    expect(got.headers["x-service-timestamp"]).toBe(String(Math.floor(T0 / 1000)));
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toBe("kasa-webhooks/1");
  });

  it("the partner's current secret signs each attempt (rotation between queueing and sending)", async () => {
    await enqueueOk(h);
    await setWebhook(h, "ptn_test", receiver.url, "whsec_rotated_secret");
    await runDue();
    // The receiver still checks the old secret: it answers 400 and sees a signature it cannot verify.
    expect(receiver.deliveries[0]!.verified).toBe(false);
    const expected = `sha256=${createHmac("sha256", "whsec_rotated_secret").update(receiver.deliveries[0]!.rawBody).digest("hex")}`;
    expect(receiver.deliveries[0]!.headers["x-service-signature"]).toBe(expected);
  });
});

describe("interface 6 no URL configured: nothing is sent", () => {
  it("a partner without a webhook URL gets nothing queued", async () => {
    expect(await enqueue(h, { type: "webhook.test" }, "ptn_other")).toBeNull();
    await h.advance(DAY_MS);
    expect(receiver.deliveries).toHaveLength(0);
    expect(await h.store.q.webhooks.list({ partnerId: "ptn_other", status: null, limit: 10 })).toEqual([]);
  });

  it("a URL removed after queueing fails the delivery permanently with 'no webhook url', unsent", async () => {
    const id = await enqueueOk(h);
    await setWebhook(h, "ptn_test", null, null);
    await runDue();
    await h.advance(DAY_MS);
    expect(receiver.deliveries).toHaveLength(0);
    expect(await delivery(h, id)).toMatchObject({ status: "failed", nextAttemptAtMs: null });
    expect(await attempts(h, id)).toEqual([
      { deliveryId: id, n: 1, startedAtMs: T0, httpStatus: null, latencyMs: null, outcome: "permanent", error: "no webhook url" },
    ]);
  });
});

describe("interface 6.4 / product 11 outcomes of one attempt", () => {
  it.each([200, 201, 202, 204])("HTTP %i within the deadline: delivered, never sent again", async (status) => {
    const id = await enqueueOk(h);
    receiver.script({ status, body: status === 204 ? "" : "ok" });
    await runDue();
    await h.advance(2 * DAY_MS);
    expect(receiver.deliveries).toHaveLength(1);
    expect((await delivery(h, id))?.status).toBe("delivered");
    expect(await attempts(h, id)).toMatchObject([{ n: 1, startedAtMs: T0, httpStatus: status, outcome: "delivered", error: null }]);
    expect((await attempts(h, id))[0]!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it.each([301, 302, 307, 400, 401, 404, 408, 410, 429, 499])("HTTP %i: permanent failure, not retried", async (status) => {
    const id = await enqueueOk(h);
    receiver.script({ status, headers: status < 400 ? { location: `${receiver.url}/elsewhere` } : {} });
    await runDue();
    await h.advance(2 * DAY_MS);
    expect(receiver.deliveries).toHaveLength(1);
    expect(await delivery(h, id)).toMatchObject({ status: "failed", attempts: 1, nextAttemptAtMs: null });
    expect(await attempts(h, id)).toMatchObject([{ n: 1, httpStatus: status, outcome: "permanent" }]);
  });

  it.each([500, 502, 503, 504])("HTTP %i: retried 30 s after the failure", async (status) => {
    const id = await enqueueOk(h);
    receiver.script({ status });
    await runDue();
    expect(await delivery(h, id)).toMatchObject({ status: "pending", attempts: 1, nextAttemptAtMs: T0 + 30_000 });
    expect(await attempts(h, id)).toMatchObject([{ n: 1, httpStatus: status, outcome: "retry", error: `HTTP ${status}` }]);
    await h.advance(30_000);
    expect(receiver.deliveries).toHaveLength(2);
    expect((await delivery(h, id))?.status).toBe("delivered");
  });

  it("a duplicate timer for a delivery sends nothing more (the row is the truth)", async () => {
    const id = await enqueueOk(h);
    h.deps.timers.schedule("webhook", id, T0);
    h.deps.timers.schedule("webhook", id, T0);
    await runDue();
    h.deps.timers.schedule("webhook", id, T0);
    await h.advance(1);
    expect(receiver.deliveries).toHaveLength(1);
  });

  it("a request is answered before any delivery runs (the outbox only schedules)", async () => {
    receiver.script({ status: 200, delayMs: 300 });
    await enqueueOk(h);
    const started = performance.now();
    const r = await h.get("/v1/payment-acceptance");
    expect(r.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(250);
    expect(receiver.deliveries).toHaveLength(0);
  });
});
