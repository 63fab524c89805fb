import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applySeed, parseSeed } from "../../../src/domain/partners/seed";
import { dayEndsDue, firstDayToEnd } from "../../../src/domain/settlement/days";
import { DAY_MS, DAYEND_CATCH_UP_MAX_DAYS, HOUR_MS } from "../../../src/limits";
import { openSqliteStore as openStore } from "../../../src/store/sqlite/sqlite-store";
import type { Store } from "../../../src/store/store";
import { TEST_SEED } from "../../support/fixtures";

// The store's own guards (product 9): whatever a unit of work does, the database refuses a second
// pending refund on a payment, a balance past the amount, and a void of a settled payment.

const T0 = Date.parse("2026-11-20T09:00:00.000Z"); // 12:00 Istanbul
let store: Store;

beforeEach(async () => {
  store = await openStore(":memory:");
  await applySeed(store, parseSeed(TEST_SEED), T0, () => `key_${Math.random()}`);
});
afterEach(async () => store.close());

async function captured(code: string, atMs = T0): Promise<void> {
  await store.write(async (tx) => {
    await tx.payments.insert({
      code,
      partnerId: "ptn_test",
      terminalId: "T-1",
      connectionId: "vpos-1",
      partnerTxCode: code,
      channel: "api",
      linkId: null,
      amount: 10_000,
      principal: 10_000,
      currency: "TRY",
      installment: 1,
      description: null,
      returnUrl: null,
      paymentRef: `ref_${code}`,
      expiresAtMs: atMs + 1_800_000,
      createdAtMs: atMs,
    });
    await tx.payments.markThreeDStarted(
      code,
      ["initiated"],
      { maskedPan: "400000******0009", cardBrand: null, cardFamily: "credit", cardBank: null, appliedRateBps: 199, appliedFixedFee: null },
      atMs,
    );
    await tx.payments.markCaptured(
      code,
      ["initiated"],
      { commissionAmount: 199, netToPartner: 9_801, expectedValueDate: "2026-11-21", bankReference: "SIM-A-0", authCode: "1" },
      atMs,
    );
  });
}

const pending = (id: string, paymentCode: string, method: "void" | "credit" = "credit", amount = 1_000) =>
  store.write(
    async (tx) =>
      await tx.refunds.insertPending({ id, paymentCode, partnerId: "ptn_test", partnerRefundCode: id, method, amount, createdAtMs: T0 }),
  );

describe("product 9: store guards of refunds", () => {
  it("refunds_one_pending: a second pending refund on one payment is refused by the index itself", async () => {
    await captured("pay_a");
    await pending("rfd_1", "pay_a");
    await expect(pending("rfd_2", "pay_a")).rejects.toThrow(/UNIQUE/i);
    await captured("pay_b");
    await expect(pending("rfd_3", "pay_b")).resolves.toBeUndefined();
  });

  it("applyToPayment never passes the amount and moves the status when nothing is left", async () => {
    await captured("pay_a");
    const apply = (amount: number) =>
      store.write(async (tx) => await tx.refunds.applyToPayment("pay_a", ["captured"], amount, "refunded", false, T0));
    expect(await apply(10_001)).toBe(false);
    expect(await apply(6_000)).toBe(true);
    expect(await store.q.payments.get("pay_a")).toMatchObject({ status: "captured", refundedAmount: 6_000 });
    expect(await apply(4_001)).toBe(false);
    expect(await apply(4_000)).toBe(true);
    expect(await store.q.payments.get("pay_a")).toMatchObject({ status: "refunded", refundedAmount: 10_000 });
    expect(await apply(1)).toBe(false);
  });

  it("a settled payment cannot be voided; a payment whose void is pending is not settled", async () => {
    await captured("pay_a");
    await captured("pay_b");
    await pending("rfd_v", "pay_b", "void", 10_000);
    expect(await store.write(async (tx) => await tx.settlement.settle("2026-11-20", T0 + 12 * HOUR_MS))).toBe(1);
    expect((await store.q.payments.get("pay_a"))?.settledDay).toBe("2026-11-20");
    expect((await store.q.payments.get("pay_b"))?.settledDay).toBeNull();
    expect(await store.write(async (tx) => await tx.refunds.applyToPayment("pay_a", ["captured"], 10_000, "voided", true, T0))).toBe(false);
    expect(await store.write(async (tx) => await tx.refunds.applyToPayment("pay_b", ["captured"], 10_000, "voided", true, T0))).toBe(true);
  });

  it("claimDay: exactly one claim per day", async () => {
    expect(await store.write(async (tx) => await tx.settlement.claimDay("2026-11-20", T0))).toBe(true);
    expect(await store.write(async (tx) => await tx.settlement.claimDay("2026-11-20", T0))).toBe(false);
    expect(await store.q.settlement.lastDay()).toBe("2026-11-20");
  });
});

describe("product 9, 13: which day ends are due", () => {
  it("a fresh database: the timer waits for tonight; kasa dayend runs yesterday", async () => {
    expect(await firstDayToEnd(store.q, T0)).toBe("2026-11-20");
    expect(await dayEndsDue(store.q, T0)).toEqual(["2026-11-19"]);
  });

  it("a fresh database with older unsettled captures starts at the oldest one's day", async () => {
    await captured("pay_old", T0 - 3 * DAY_MS);
    expect(await firstDayToEnd(store.q, T0)).toBe("2026-11-17");
    expect(await dayEndsDue(store.q, T0)).toEqual(["2026-11-17", "2026-11-18", "2026-11-19"]);
  });

  it("after the last day end that ran, every later ended day, at most DAYEND_CATCH_UP_MAX_DAYS back", async () => {
    await store.write(async (tx) => await tx.settlement.claimDay("2026-11-17", T0));
    expect(await firstDayToEnd(store.q, T0)).toBe("2026-11-18");
    expect(await dayEndsDue(store.q, T0)).toEqual(["2026-11-18", "2026-11-19"]);
    await store.write(async (tx) => await tx.settlement.claimDay("2026-11-19", T0));
    expect(await dayEndsDue(store.q, T0)).toEqual([]);
    const later = T0 + 1000 * DAY_MS;
    expect(await dayEndsDue(store.q, later)).toHaveLength(DAYEND_CATCH_UP_MAX_DAYS);
  });
});
