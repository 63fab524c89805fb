import { DEMO_BINS } from "../../src/bank/test-cards";
import { harness } from "./harness";
import { TEST_SEED } from "./fixtures";

// Issue 21: the OpenAPI document's examples are real answers. This runs one request per operation
// through a sandbox kasa (the same app the tests use) and keeps each success answer;
// `npm run openapi:examples` writes them to src/openapi/examples.json, and a test checks that
// every operation has one and that each still matches its schema.

export type Example = { status: number; body: unknown };

export async function recordExamples(): Promise<Record<string, Example>> {
  const h = await harness({ seed: { ...TEST_SEED, bins: DEMO_BINS.map((b) => ({ ...b })) }, config: { mode: "sandbox" } });
  const out: Record<string, Example> = {};
  const keep = (id: string, r: { status: number; json: unknown }) => {
    if (r.status >= 300) throw new Error(`${id}: ${r.status} ${JSON.stringify(r.json)}`);
    out[id] = { status: r.status, body: r.json };
    return r.json as any;
  };
  try {
    keep("getPaymentAcceptance", await h.get("/v1/payment-acceptance"));
    const link = keep(
      "createPaymentLink",
      await h.post("/v1/payment-links", {
        amount: 125_000,
        terminalId: "T-1",
        description: "Order 42",
        items: [{ name: "Tea", amount: 125_000 }],
      }),
    );
    keep("getPaymentLink", await h.get(`/v1/payment-links/${link.id}`));
    keep("listPaymentLinks", await h.get("/v1/payment-links?page=0&size=20"));
    const other = (await h.post("/v1/payment-links", { amount: 5_000, terminalId: "T-1" })).json;
    keep("cancelPaymentLink", await h.del(`/v1/payment-links/${other.id}`));
    keep("getInstallmentOptions", await h.post("/v1/installment-options", { bin: "40000011", terminalId: "T-1", baseAmount: 100_000 }));
    keep("getInstallmentOverview", await h.post("/v1/installment-options/overview", { terminalId: "T-1", baseAmount: 100_000 }));
    const body = {
      amount: 125_000,
      partnerTxCode: "order-42",
      terminalId: "T-1",
      installment: 3,
      returnUrl: "https://shop.example/return",
    };
    const created = keep("createPayment", await h.post("/v1/payments", body));
    keep("getPaymentByTxCode", await h.get("/v1/payments?partnerTxCode=order-42"));
    keep("simulatePayment", await h.post(`/sandbox/payments/${created.paymentCode}/simulate`, { card: "4000001100000009" }));
    keep("getPayment", await h.get(`/v1/payments/${created.paymentCode}`));
    keep("simulatePaymentLink", await h.post(`/sandbox/payment-links/${link.id}/simulate`, { card: "4000002200000006", installment: 1 }));
    const refunded = keep("refundPayment", await h.post(`/v1/payments/${created.paymentCode}/refunds`, { partnerRefundCode: "refund-42" }));
    keep("getRefund", await h.get(`/v1/payments/${created.paymentCode}/refunds/${refunded.refundId}`));
    const second = (await h.post("/v1/payments", { ...body, partnerTxCode: "order-43" })).json;
    await h.post(`/sandbox/payments/${second.paymentCode}/simulate`, { card: "4000001100000009" });
    keep("voidPayment", await h.post(`/v1/payments/${second.paymentCode}/refunds/void`, { partnerRefundCode: "void-43" }));
    const third = (await h.post("/v1/payments", { ...body, partnerTxCode: "order-44" })).json;
    await h.post(`/sandbox/payments/${third.paymentCode}/simulate`, { card: "4000001100000009" });
    keep("getSandboxClock", await h.get("/sandbox/clock"));
    keep("moveSandboxClock", await h.post("/sandbox/clock", { advanceSeconds: 86_400 }));
    keep(
      "creditPayment",
      await h.post(`/v1/payments/${third.paymentCode}/refunds/credit`, { amount: 10_000, partnerRefundCode: "credit-44" }),
    );
    keep("setSandboxOutage", await h.post("/sandbox/connections/vpos-1/outage", { seconds: 60 }));
  } finally {
    await h.close();
  }
  return out;
}
