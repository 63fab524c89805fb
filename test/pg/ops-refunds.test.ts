import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewRefund, RefundOutcome } from "../../src/store/rows-money";
import { bothStores, type Both } from "./differential";
import { newPayment, type Ops, onBoth, seedWorld, T0 } from "./payments-world";

// Issue 23: the refunds group answers on PostgreSQL as on SQLite.

let both: Both;
beforeEach(async () => {
  both = await bothStores();
  await seedWorld(both);
  await onBoth(both, async (o) => {
    for (const n of [1, 2]) {
      await o.payments.insert(newPayment(n, { amount: 1_000 }));
      await o.payments.markCaptured(
        newPayment(n).code,
        ["initiated"],
        { commissionAmount: 10, netToPartner: 990, expectedValueDate: "2026-12-01", bankReference: "b", authCode: "a" },
        T0 + 1,
      );
    }
  });
});
afterEach(async () => both.close());

const PAY = newPayment(1).code;

const refund = (id: string, over: Partial<NewRefund> = {}): NewRefund => ({
  id,
  paymentCode: PAY,
  partnerId: "ptn_a",
  partnerRefundCode: `prc-${id}`,
  method: "credit",
  amount: 100,
  createdAtMs: T0 + 10,
  ...over,
});

const OK: RefundOutcome = { procReturnCode: "00", authCode: "A1", errMsg: null, bankReference: "rb-1" };

describe("product 22: refunds operations answer on PostgreSQL as on SQLite", () => {
  it("insertPending, notePendingAtBank, finish, get, byPartnerCode, ofPayment, totals, allPending", async () => {
    const steps = async (o: Ops) => [
      await o.refunds.totals(PAY),
      await o.refunds.insertPending(refund("rf_b", { createdAtMs: T0 + 20 })),
      await o.refunds.insertPending(refund("rf_z", { paymentCode: newPayment(2).code, createdAtMs: T0 + 5 })),
      await o.refunds.allPending(),
      await o.refunds.notePendingAtBank("rf_b", "pending-ref", T0 + 21),
      await o.refunds.finish("rf_b", ["pending"], "approved", { ...OK, bankReference: null }, T0 + 22),
      await o.refunds.notePendingAtBank("rf_b", "late", T0 + 23),
      await o.refunds.finish("rf_b", ["pending"], "declined", OK, T0 + 24),
      await o.refunds.insertPending(refund("rf_a", { method: "void", amount: 250, createdAtMs: T0 + 20 })),
      await o.refunds.totals(PAY),
      await o.refunds.finish(
        "rf_a",
        ["pending"],
        "declined",
        { procReturnCode: "05", authCode: null, errMsg: "no", bankReference: "rb-2" },
        T0 + 25,
      ),
      await o.refunds.insertPending(refund("rf_c", { amount: 300, createdAtMs: T0 + 30 })),
      await o.refunds.finish("rf_c", ["pending"], "approved", OK, T0 + 31),
      await o.refunds.get("rf_b"),
      await o.refunds.get("rf_missing"),
      await o.refunds.byPartnerCode("ptn_a", "prc-rf_a"),
      await o.refunds.byPartnerCode("ptn_b", "prc-rf_a"),
      await o.refunds.ofPayment(PAY),
      await o.refunds.totals(PAY),
      await o.refunds.allPending(),
    ];
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual({ approved: 0, pending: 0, count: 0, approvedCredits: 0 });
    expect(sqlite[9]).toEqual({ approved: 100, pending: 250, count: 2, approvedCredits: 1 });
    expect(sqlite[18]).toEqual({ approved: 400, pending: 0, count: 3, approvedCredits: 2 });
    expect((sqlite[17] as { id: string }[]).map((r) => r.id)).toEqual(["rf_a", "rf_b", "rf_c"]);
  });

  it("applyToPayment grows refunded_amount up to the amount, finishes the payment, and voids an unsettled one", async () => {
    const code2 = newPayment(2).code;
    const steps = async (o: Ops) => [
      await o.refunds.applyToPayment(PAY, ["captured"], 400, "refunded", false, T0 + 10),
      await o.refunds.applyToPayment(PAY, ["captured"], 601, "refunded", false, T0 + 11),
      await o.refunds.applyToPayment(PAY, ["initiated"], 100, "refunded", false, T0 + 12),
      await o.refunds.applyToPayment(PAY, ["captured"], 600, "refunded", false, T0 + 13),
      await o.payments.get(PAY),
      await o.refunds.applyToPayment(PAY, ["captured"], 0, "refunded", false, T0 + 14),
      await o.refunds.applyToPayment(code2, ["captured"], 1_000, "voided", true, T0 + 15),
      await o.payments.get(code2),
    ];
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite.filter((x) => typeof x === "boolean")).toEqual([true, false, false, true, false, true]);
  });
});
