import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../src/limits";
import { estHarness, estPayment, payAtBank, type EstHarness } from "./est-flow";

// Product 19 / issue 20: the metric families kept by triggers (payment and refund transitions,
// webhook attempts; a rolled-back unit counts nothing), by the limiter (refusals by budget) and
// by the bank registry (calls by bank, operation and outcome, with latency).

let h: EstHarness;
afterEach(async () => h?.close());

const metric = (text: string, line: RegExp): number => Number(line.exec(text)?.[1] ?? "NaN");

describe("product 19: the rest of the metric families", () => {
  it("payment and refund transitions, and bank calls by bank, operation and outcome", async () => {
    h = await estHarness();
    const ok = await estPayment(h, "T-E3D");
    await payAtBank(h, ok.paymentRef, "4000001100000009");
    const declined = await estPayment(h, "T-E3D");
    await payAtBank(h, declined.paymentRef, "4000009900000004");
    await h.post(`/v1/payments/${ok.paymentCode}/refunds/void`, { partnerRefundCode: "m-void" });
    const text = await h.runtime.metrics.render();
    expect(text).toContain("# TYPE kasa_payment_transitions_total counter");
    expect(metric(text, /^kasa_payment_transitions_total\{status="initiated"\} (\d+)$/m)).toBe(2);
    expect(metric(text, /^kasa_payment_transitions_total\{status="captured"\} (\d+)$/m)).toBe(1);
    expect(metric(text, /^kasa_payment_transitions_total\{status="failed"\} (\d+)$/m)).toBe(1);
    expect(metric(text, /^kasa_payment_transitions_total\{status="voided"\} (\d+)$/m)).toBe(1);
    expect(metric(text, /^kasa_refund_transitions_total\{status="pending"\} (\d+)$/m)).toBe(1);
    expect(metric(text, /^kasa_refund_transitions_total\{status="approved"\} (\d+)$/m)).toBe(1);
    expect(text).toContain('kasa_bank_calls_total{bank="est",operation="capture",outcome="approved"} 1');
    expect(text).toContain('kasa_bank_calls_total{bank="est",operation="capture",outcome="declined"} 1');
    expect(text).toContain('kasa_bank_calls_total{bank="est",operation="void",outcome="approved"} 1');
    expect(text).toContain('kasa_bank_calls_total{bank="est",operation="verifyCallback",outcome="authenticated"} 2');
    expect(text).toMatch(/^kasa_bank_call_duration_seconds_count\{bank="est",operation="capture"\} 2$/m);
  });

  it("a unit that rolls back counts nothing", async () => {
    h = await estHarness();
    await h.store
      .write(async (tx) => {
        await tx.payments.insert({
          code: "pay_rollback0000000001",
          partnerId: "ptn_test",
          terminalId: "T-1",
          connectionId: "vpos-1",
          partnerTxCode: "rb-1",
          channel: "api",
          linkId: null,
          amount: 100,
          principal: 100,
          currency: "TRY",
          installment: 1,
          description: null,
          returnUrl: null,
          paymentRef: "ref_rollback",
          expiresAtMs: h.clock.nowMs() + HOUR_MS,
          createdAtMs: h.clock.nowMs(),
        });
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await h.runtime.metrics.render()).not.toMatch(/kasa_payment_transitions_total\{status="initiated"\} [1-9]/);
  });

  it("rate-limit refusals by budget", async () => {
    const { harness } = await import("../support/harness");
    const limited = await harness({ limits: { "reads.key": 1 } });
    try {
      await limited.get("/v1/payments/pay_missing000000000001");
      await limited.get("/v1/payments/pay_missing000000000002");
      expect(await limited.runtime.metrics.render()).toContain('kasa_rate_limit_refusals_total{budget="reads.key"} 1');
    } finally {
      await limited.close();
    }
  });
});
