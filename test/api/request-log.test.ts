import { afterEach, describe, expect, it } from "vitest";
import { TEST_CARDS } from "../../src/bank/test-cards";
import { TEST_KEY, TEST_KEY_2 } from "../support/fixtures";
import { harness, type Harness } from "../support/harness";
import { capture } from "../support/kasa-process";
import { SECRET, setWebhook, useReceiver } from "../unit/webhooks/support";
import type { Receiver } from "../unit/webhooks/receiver";
import { createPayment, handOff } from "./payments-flow";

let h: Harness;
let receiver: Receiver;
useReceiver((r) => (receiver = r));
afterEach(async () => h?.close());

const requestLines = (lines: string[]) => lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "request");

describe("product 19 logs: one JSON line per request, never card data, keys or secrets", () => {
  it("a request line carries method, route pattern, status, ms, traceId and partnerId", async () => {
    const lines: string[] = [];
    h = await harness({ jsonLog: lines });
    const r = await h.get("/v1/payment-acceptance");
    await h.get("/v1/payments/pay_missing000000000001");
    await h.get("/nowhere?token=abc", { key: null });
    const [ok, missing, unmatched] = requestLines(lines);
    expect(ok).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: "info",
      tag: "kasa",
      msg: "request",
      method: "GET",
      route: "/v1/payment-acceptance",
      status: 200,
      ms: expect.any(Number),
      traceId: r.headers.get("x-trace-id"),
      partnerId: "ptn_test",
    });
    expect(missing).toMatchObject({ route: "/v1/payments/:paymentCode", status: 404, partnerId: "ptn_test" });
    expect(unmatched).toMatchObject({ route: "unmatched", status: 404, partnerId: null, traceId: expect.stringMatching(/^tr_/) });
    expect(lines.join("")).not.toContain("token=abc");
  });

  it("a full flow (payments through handoff and 3D with every test card, capture, refund, webhook) logs no PAN, key or secret", async () => {
    const lines: string[] = [];
    h = await harness({ jsonLog: lines });
    await setWebhook(h, "ptn_test", receiver.url, SECRET);
    const code = await capture(h);
    for (const card of TEST_CARDS) {
      const created = await createPayment(h);
      await handOff(h, created.json.paymentRef, card.pan);
    }
    const refund = await h.post(`/v1/payments/${code}/refunds`, { partnerRefundCode: "R-log-1" });
    expect(refund.status).toBeLessThan(300);
    await h.get("/v1/payment-acceptance", { key: TEST_KEY_2 });
    await h.runDue();
    expect(receiver.deliveries.length).toBeGreaterThanOrEqual(2);
    expect(requestLines(lines).length).toBeGreaterThan(TEST_CARDS.length * 2);
    const all = lines.join("\n");
    const secrets = [...TEST_CARDS.map((c) => c.pan), TEST_KEY, TEST_KEY_2, SECRET, "whsec_test_secret"];
    expect(secrets.filter((s) => all.includes(s))).toEqual([]);
  });
});
