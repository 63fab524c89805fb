import { describe, expect, it } from "vitest";
import { listDeliveries, resendDelivery, sendTestWebhook, showDelivery, WebhookOperatorError } from "../../src/domain/webhooks/service";
import { DAY_MS, SECOND_MS, WEBHOOK_RETRY_DELAYS_MS } from "../../src/limits";
import { T0, type Harness } from "../support/harness";
import type { Receiver } from "../unit/webhooks/receiver";
import { enqueueOk, setWebhook, useReceiverHarness } from "../unit/webhooks/support";

let receiver: Receiver;
let h: Harness;

useReceiverHarness((ready) => ({ receiver, h } = ready));

const runDue = () => h.deps.timers.runDue();

describe("product 14 kasa webhooks list", () => {
  it("lists newest first with filters by partner and status, bounded by limit", async () => {
    await setWebhook(h, "ptn_other", receiver.url);
    const a = await enqueueOk(h, { type: "payment.captured", paymentCode: "pay_a" });
    await h.advance(SECOND_MS);
    const b = await enqueueOk(h, { type: "webhook.test" }, "ptn_other");
    await h.advance(SECOND_MS);
    receiver.script({ status: 410 });
    const c = await enqueueOk(h, { type: "payment.failed", paymentCode: "pay_c" });
    await runDue();
    expect((await listDeliveries(h.store.q)).map((d) => d.id)).toEqual([c, b, a]);
    expect((await listDeliveries(h.store.q, { partnerId: "ptn_test" })).map((d) => d.id)).toEqual([c, a]);
    expect((await listDeliveries(h.store.q, { status: "failed" })).map((d) => d.id)).toEqual([c]);
    expect((await listDeliveries(h.store.q, { partnerId: "ptn_other", status: "delivered" })).map((d) => d.id)).toEqual([b]);
    expect((await listDeliveries(h.store.q, { limit: 1 })).map((d) => d.id)).toEqual([c]);
    expect((await listDeliveries(h.store.q, { status: "failed" }))[0]).toEqual({
      id: c,
      partnerId: "ptn_test",
      type: "payment.failed",
      status: "failed",
      attempts: 1,
      occurredAt: new Date(T0 + 2 * SECOND_MS).toISOString(),
      nextAttemptAt: null,
      firstAttemptAt: new Date(T0 + 2 * SECOND_MS).toISOString(),
      createdAt: new Date(T0 + 2 * SECOND_MS).toISOString(),
      updatedAt: new Date(T0 + 2 * SECOND_MS).toISOString(),
    });
  });

  it.each([
    [{ status: "lost" }, "status: must be one of pending, delivered, failed, dropped"],
    [{ limit: 0 }, "limit: must be an integer from 1 to 200"],
    [{ limit: 201 }, "limit: must be an integer from 1 to 200"],
    [{ limit: Number.NaN }, "limit: must be an integer from 1 to 200"],
  ])("refuses %o", async (filter, message) => {
    await expect(listDeliveries(h.store.q, filter)).rejects.toThrow(new WebhookOperatorError(message));
  });
});

describe("product 14 kasa webhooks show", () => {
  it("shows the body and every attempt with status, latency and error", async () => {
    receiver.script({ status: 500 });
    const id = await enqueueOk(h);
    await runDue();
    await h.advance(30 * SECOND_MS);
    const shown = await showDelivery(h.store.q, id);
    expect(shown).toMatchObject({ id, status: "delivered", attempts: 2, body: (await h.store.q.webhooks.get(id))!.body });
    expect(shown.history).toMatchObject([
      { n: 1, startedAt: new Date(T0).toISOString(), outcome: "retry", httpStatus: 500, error: "HTTP 500" },
      { n: 2, startedAt: new Date(T0 + 30 * SECOND_MS).toISOString(), outcome: "delivered", httpStatus: 200, error: null },
    ]);
    expect(typeof shown.history[0]!.latencyMs).toBe("number");
  });

  it("an unknown id is an operator error", async () => {
    await expect(showDelivery(h.store.q, "evt_nope")).rejects.toThrow("delivery evt_nope not found");
  });
});

describe("product 14 kasa webhooks resend (interface 6.3: same delivery id)", () => {
  it("re-queues the same id and body; the receiver gets it again; attempt numbers continue", async () => {
    const id = await enqueueOk(h);
    await runDue();
    await h.advance(DAY_MS);
    const shown = await resendDelivery(h.deps, id);
    expect(shown).toMatchObject({ id, status: "pending", nextAttemptAt: new Date(T0 + DAY_MS).toISOString(), firstAttemptAt: null });
    await runDue();
    expect(receiver.deliveries).toHaveLength(2);
    expect(receiver.deliveries[1]!.rawBody).toBe(receiver.deliveries[0]!.rawBody);
    expect(receiver.deliveries[1]!.headers["x-service-delivery-id"]).toBe(id);
    expect(receiver.deliveries[1]!.headers["x-service-timestamp"]).toBe(String(Math.floor(T0 / 1000)));
    expect((await showDelivery(h.store.q, id)).history.map((a) => [a.n, a.outcome])).toEqual([
      [1, "delivered"],
      [2, "delivered"],
    ]);
  });

  it("a resent dropped delivery gets a new retry cycle and 24 h window", async () => {
    receiver.script(...Array.from({ length: 7 }, () => ({ status: 503 })));
    const id = await enqueueOk(h);
    await runDue();
    for (const delayMs of WEBHOOK_RETRY_DELAYS_MS) await h.advance(delayMs);
    expect(receiver.deliveries).toHaveLength(6);
    await h.advance(DAY_MS);
    expect((await h.store.q.webhooks.get(id))?.status).toBe("dropped");
    await resendDelivery(h.deps, id);
    await runDue();
    expect(await h.store.q.webhooks.get(id)).toMatchObject({
      status: "pending",
      attempts: 1,
      nextAttemptAtMs: h.clock.nowMs() + 30 * SECOND_MS,
    });
    await h.advance(30 * SECOND_MS);
    expect(receiver.deliveries).toHaveLength(8);
    expect((await showDelivery(h.store.q, id)).history.map((a) => a.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await h.store.q.webhooks.get(id))?.status).toBe("delivered");
  });

  it.each([
    ["an unknown id", "evt_nope", "delivery evt_nope not found"],
    ["a pending delivery", null, "is still pending"],
  ])("refuses %s", async (_name, given, message) => {
    const id = given ?? (await enqueueOk(h));
    await expect(resendDelivery(h.deps, id)).rejects.toThrow(message);
  });
});

describe("interface 6.1 webhook.test (kasa webhooks test)", () => {
  it("queues and delivers webhook.test with no business data", async () => {
    const shown = await sendTestWebhook(h.deps, "ptn_test");
    expect(shown).toMatchObject({ type: "webhook.test", status: "pending", partnerId: "ptn_test" });
    await runDue();
    expect(JSON.parse(receiver.deliveries[0]!.rawBody)).toEqual({
      id: shown.id,
      type: "webhook.test",
      occurredAt: new Date(T0).toISOString(),
    });
    expect((await h.store.q.webhooks.get(shown.id))?.status).toBe("delivered");
  });

  it.each([
    ["ptn_other", "partner ptn_other has no webhook url"],
    ["ptn_nope", "partner ptn_nope not found"],
  ])("%s: %s", async (partnerId, message) => {
    await expect(sendTestWebhook(h.deps, partnerId)).rejects.toThrow(new WebhookOperatorError(message));
    expect(await listDeliveries(h.store.q)).toEqual([]);
  });
});
