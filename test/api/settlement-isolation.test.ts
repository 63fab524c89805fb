import { afterEach, describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { capture } from "../support/kasa-process";
import { patchUnits } from "../support/unit-patch";
import { MONEY_SEED } from "../support/money-fixtures";

// Issue 15 item 3, product 23: money sums are exact above 2^53, and each partner's payout batch is
// formed in its own unit, so one partner's failure is logged and never blocks another's.

const TO_MIDNIGHT = 12 * HOUR_MS;
const OTHER_KEY = "kasa_sk_other_cccccccccccccccccccccccccccccc";

let h: Harness;
afterEach(async () => h?.close());

const batches = async (partnerId: string) => await h.store.q.operator.payoutBatches({ partnerId, status: null, limit: 100 });

describe("product 23: day end with amounts near 2^53", () => {
  it("a balance of 2^53 + 1 is computed exactly, forms no batch (logged), and the other partner is paid as usual", async () => {
    h = await harness({ seed: MONEY_SEED });
    const a = await capture(h, { amount: 10_000 });
    const b = await capture(h, { amount: 10_000 });
    const other = await capture(h, { amount: 5_000, terminalId: "T-OTHER", key: OTHER_KEY });
    // Stored nets whose float sum is inexact: 2^53 - 1 + 2 = 2^53 + 1.
    await h.store.write(async (tx) => {
      await tx.fixtures.patchPayment(a, { netToPartner: Number.MAX_SAFE_INTEGER });
      await tx.fixtures.patchPayment(b, { netToPartner: 2 });
    });
    await h.advance(TO_MIDNIGHT);
    expect(await batches("ptn_test")).toEqual([]);
    expect(h.log.lines.some((l) => l.includes("payout batch not formed") && l.includes("9007199254740993"))).toBe(true);
    expect(await batches("ptn_other")).toEqual([expect.objectContaining({ amount: (await h.store.q.payments.get(other))!.netToPartner })]);
    expect((await h.store.q.payments.get(a))?.payoutBatchId).toBeNull();
  });
});

describe("product 23: one partner's batch failure never blocks another's", () => {
  it("the failing partner's items stay due and its batch is formed by the next day end", async () => {
    h = await harness({ seed: MONEY_SEED });
    const mine = await capture(h, { amount: 10_000 });
    const other = await capture(h, { amount: 5_000, terminalId: "T-OTHER", key: OTHER_KEY });
    const restore = patchUnits(h.store, (tx) => ({
      settlement: {
        ...tx.settlement,
        async createBatch(batch) {
          if (batch.partnerId === "ptn_test") throw new Error("disk full while forming ptn_test's batch");
          await tx.settlement.createBatch(batch);
        },
      },
    }));
    await h.advance(TO_MIDNIGHT);
    restore();
    expect(await batches("ptn_test")).toEqual([]);
    // ptn_other's batch is formed (and then fails at the bank: the test seed gives it no payout account).
    expect(await batches("ptn_other")).toEqual([expect.objectContaining({ amount: (await h.store.q.payments.get(other))!.netToPartner })]);
    expect(h.log.lines.some((l) => l.includes("payout batch failed") && l.includes("ptn_test"))).toBe(true);
    await h.advance(DAY_MS);
    expect(await batches("ptn_test")).toEqual([
      expect.objectContaining({ amount: (await h.store.q.payments.get(mine))!.netToPartner, status: "paid_out" }),
    ]);
  });
});
