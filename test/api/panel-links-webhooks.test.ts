import { afterEach, describe, expect, it } from "vitest";
import { harness, type Harness } from "../support/harness";
import { OTHER_KEY } from "../support/fixtures";
import { addPanelUser, codeOf, panelClient } from "../support/panel-client";
import type { Receiver } from "../unit/webhooks/receiver";
import { enqueueOk, setWebhook, useReceiverHarness } from "../unit/webhooks/support";

// Product 18: links (create with items, cancel) and webhooks (deliveries, resend, send-test),
// through the API's and the operator's own domain functions, scoped to the user's partner.

async function as(h: Harness, role: "viewer" | "staff" | "admin") {
  await addPanelUser(h, `${role}@shop.example`, role);
  const c = panelClient(h);
  expect((await c.login(`${role}@shop.example`)).status).toBe(303);
  return c;
}

const LINK_FORM = {
  amount: "150,00",
  terminalId: "T-1",
  description: "Sipariş 9",
  payerName: "Ayşe",
  allowedInstallmentCounts: "1, 3",
  item1Name: "Çay",
  item1Amount: "100",
  item2Name: "Kargo",
  item2Amount: "50,00",
};

describe("product 18 panel links", () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it("staff creates a link with items (the URL shown) and cancels it; the API sees both", async () => {
    h = await harness();
    const c = await as(h, "staff");
    const created = await c.act("/panel/links", LINK_FORM);
    expect(created.status).toBe(201);
    const url = /id="new-link-url">([^<]+)</.exec(created.text)![1]!;
    const id = /Bağlantı <code>(pl_[0-9a-z]+)<\/code>/.exec(created.text)![1]!;
    const api = await h.get(`/v1/payment-links/${id}`);
    expect(api.json).toMatchObject({ amount: 15_000, status: "pending", url, payerName: "Ayşe", allowedInstallmentCounts: [1, 3] });
    expect(api.json.items).toEqual([
      { name: "Çay", note: null, amount: 10_000 },
      { name: "Kargo", note: null, amount: 5_000 },
    ]);
    expect((await c.get("/panel/links")).text).toContain(url);
    expect((await c.act(`/panel/links/${id}/cancel`)).status).toBe(303);
    expect((await h.get(`/v1/payment-links/${id}`)).json.status).toBe("cancelled");
    const again = await c.act(`/panel/links/${id}/cancel`);
    expect([again.status, codeOf(again.text)]).toEqual([409, "payment_link_cancelled"]);
  });

  it.each([
    ["items that do not sum to the amount", { item2Amount: "49,99" }, 422, "payment_link_items_amount_mismatch"],
    ["another partner's terminal", { terminalId: "T-OTHER" }, 403, "terminal_not_allowed"],
    ["an amount that is not money", { amount: "1.5.0" }, 400, "validation_error"],
  ])("a form with %s is refused with the API's code and creates nothing", async (_name, over, status, code) => {
    h = await harness();
    const c = await as(h, "staff");
    const r = await c.act("/panel/links", { ...LINK_FORM, ...over });
    expect([r.status, codeOf(r.text)]).toEqual([status, code]);
    expect((await h.get("/v1/payment-links")).json.items).toEqual([]);
  });

  it("another partner's link is 404 and stays open; a viewer cannot create links", async () => {
    h = await harness();
    const theirs = await h.post("/v1/payment-links", { amount: 1000, terminalId: "T-OTHER" }, { key: OTHER_KEY });
    const c = await as(h, "staff");
    const r = await c.act(`/panel/links/${theirs.json.id}/cancel`);
    expect([r.status, codeOf(r.text)]).toEqual([404, "payment_link_not_found"]);
    expect((await h.get(`/v1/payment-links/${theirs.json.id}`, { key: OTHER_KEY })).json.status).toBe("pending");
    const viewer = await as(h, "viewer");
    expect((await viewer.act("/panel/links", LINK_FORM)).status).toBe(403);
  });
});

describe("product 18 panel webhooks: resend and send-test reach the receiver, correctly signed", () => {
  let receiver: Receiver;
  let h: Harness;
  useReceiverHarness((ready) => ({ receiver, h } = ready));

  it("a failed delivery is resent (same id), and webhook.test is sent", async () => {
    receiver.script({ status: 410 });
    const id = await enqueueOk(h);
    await h.deps.timers.runDue();
    expect((await h.store.q.webhooks.get(id))?.status).toBe("failed");
    const c = await as(h, "admin");
    expect((await c.get(`/panel/webhooks/${id}`)).text).toContain("HTTP 410");
    const resent = await c.act(`/panel/webhooks/${id}/resend`);
    expect(resent.status).toBe(303);
    await h.deps.timers.runDue();
    expect((await h.store.q.webhooks.get(id))?.status).toBe("delivered");
    const test = await c.act("/panel/webhooks/test");
    expect(test.status).toBe(303);
    await h.deps.timers.runDue();
    expect(receiver.deliveries.map((d) => [d.headers["x-service-delivery-id"] === id, JSON.parse(d.rawBody).type, d.verified])).toEqual([
      [true, "payment.captured", true],
      [true, "payment.captured", true],
      [false, "webhook.test", true],
    ]);
  });

  it("another partner's delivery is 404; staff cannot resend or send-test; a pending one is not resent", async () => {
    await setWebhook(h, "ptn_other", receiver.url);
    const theirs = await enqueueOk(h, { type: "webhook.test" }, "ptn_other");
    const admin = await as(h, "admin");
    expect((await admin.get(`/panel/webhooks/${theirs}`)).status).toBe(404);
    expect((await admin.act(`/panel/webhooks/${theirs}/resend`)).status).toBe(404);
    const mine = await enqueueOk(h);
    const pending = await admin.act(`/panel/webhooks/${mine}/resend`);
    expect([pending.status, codeOf(pending.text)]).toEqual([400, "validation_error"]);
    const staff = await as(h, "staff");
    expect((await staff.act("/panel/webhooks/test")).status).toBe(403);
    expect(await h.store.q.webhooks.list({ partnerId: "ptn_test", status: null, limit: 10 })).toHaveLength(1);
  });
});
