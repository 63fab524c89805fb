import { describe, expect, it } from "vitest";
import { SIM_REFUND_PENDING_MS } from "../../../src/bank/sim/sim-limits";
import { TEST_CARDS } from "../../../src/bank/test-cards";
import { acsSubmission, callbackUrlOf, cb, newBank, startOf, T0 } from "./sim-fixtures";

type Flow =
  | { start: "declined" }
  | { start: "form"; authenticated: false }
  | { start: "form"; authenticated: true; capture: "insufficient_funds" }
  | { start: "form"; authenticated: true; capture: "approved"; refunds: "approved" | "pending" | "declined" };

const approved: Flow = { start: "form", authenticated: true, capture: "approved", refunds: "approved" };

// The outcome column of product 6, written out again here so the table in src is checked too.
const ROWS: { pan: string; flow: Flow }[] = [
  { pan: "4000001100000009", flow: approved },
  { pan: "4000002200000006", flow: approved },
  { pan: "5400006600000006", flow: approved },
  { pan: "4000003300000003", flow: approved },
  { pan: "4000004400000000", flow: approved },
  { pan: "4000005500000006", flow: approved },
  { pan: "5400007700000003", flow: { start: "declined" } },
  { pan: "4000008800000007", flow: { start: "form", authenticated: false } },
  { pan: "4000009900000004", flow: { start: "form", authenticated: true, capture: "insufficient_funds" } },
  { pan: "4000001200000008", flow: approved },
  { pan: "5400001300000000", flow: { ...approved, refunds: "pending" } },
  { pan: "4000001500000005", flow: { ...approved, refunds: "declined" } },
  { pan: "3400001400000004", flow: approved },
];

describe("product 6 test cards through start3d -> ACS -> callback -> capture -> refund", () => {
  it("covers every test card", () => {
    expect(ROWS.map((r) => r.pan)).toEqual(TEST_CARDS.map((c) => c.pan));
  });

  it.each(ROWS)("$pan", async ({ pan, flow }) => {
    const bank = newBank();
    const attemptId = `att_${pan}`;
    if (flow.start === "declined") {
      expect(await startOf(bank, pan, attemptId)).toEqual({ kind: "declined" });
      return;
    }
    const { action, form, page } = await acsSubmission(bank, pan, attemptId);
    expect(page.status).toBe(200);
    expect(action).toBe(callbackUrlOf(attemptId));

    const callback = await bank.verifyCallback(cb(form), { amount: 1, installment: 1, attemptId, nowMs: T0 + 1000 });
    expect(callback).toMatchObject({ ok: true, authenticated: flow.authenticated });
    if (!callback.ok || !flow.authenticated) return;

    const capture = await bank.capture({ attemptId, amount: 123456, installment: 1, bankProfile: callback.bankProfile });
    if (flow.capture === "insufficient_funds") {
      expect(capture).toEqual({ approved: false, reason: "insufficient_funds" });
      return;
    }
    if (!capture.approved) throw new Error("capture should be approved");
    expect(capture.authCode).toMatch(/^\d{6}$/);
    // The reference encodes behaviour, never the card (product 5).
    expect(capture.bankReference).not.toContain(pan.slice(0, 6));
    expect(capture.bankReference).not.toContain(pan.slice(0, 8));

    const nowMs = T0 + 5000;
    for (const reverse of [bank.refund, bank.void]) {
      const result = await reverse({ idempotencyKey: "rfd_test", bankReference: capture.bankReference, amount: 1000, nowMs });
      expect(result.status).toBe(flow.refunds);
      if (flow.refunds !== "pending") continue;
      expect(result.nextCheckAtMs).toBe(nowMs + SIM_REFUND_PENDING_MS);
      const ask = (at: number) =>
        bank.refundStatus({ bankReference: capture.bankReference, refundReference: result.bankReference ?? "", nowMs: at });
      expect((await ask(nowMs + SIM_REFUND_PENDING_MS - 1)).status).toBe("pending");
      expect(await ask(nowMs + SIM_REFUND_PENDING_MS)).toMatchObject({ status: "approved", procReturnCode: "00" });
    }
  });
});

describe("product 9 refund answers carry the interface 2.4 bank fields", () => {
  it.each([
    ["4000001100000009", { status: "approved", procReturnCode: "00", errMsg: null, nextCheckAtMs: null }],
    ["4000001500000005", { status: "declined", procReturnCode: "05", authCode: null, nextCheckAtMs: null }],
    ["5400001300000000", { status: "pending", procReturnCode: null, authCode: null, errMsg: null }],
  ])("%s", async (pan, expected) => {
    const bank = newBank();
    const { form } = await acsSubmission(bank, pan, "att_1");
    const callback = await bank.verifyCallback(cb(form), { amount: 1, installment: 1, attemptId: "att_1", nowMs: T0 });
    if (!callback.ok) throw new Error("callback refused");
    const capture = await bank.capture({ attemptId: "att_1", amount: 5000, installment: 1, bankProfile: callback.bankProfile });
    if (!capture.approved) throw new Error("capture refused");
    const refund = await bank.refund({ idempotencyKey: "rfd_test", bankReference: capture.bankReference, amount: 5000, nowMs: T0 });
    expect(refund).toMatchObject(expected);
    expect(refund.bankReference).toMatch(/^SIMRF-/);
  });

  it("keeps refund behaviour across a restart with the same secret (no card data kept)", async () => {
    const before = newBank();
    const { form } = await acsSubmission(before, "5400001300000000", "att_r");
    const callback = await before.verifyCallback(cb(form), { amount: 1, installment: 1, attemptId: "att_r", nowMs: T0 });
    if (!callback.ok) throw new Error("callback refused");
    const capture = await before.capture({ attemptId: "att_r", amount: 5000, installment: 1, bankProfile: callback.bankProfile });
    if (!capture.approved) throw new Error("capture refused");
    const refund = await before.refund({ idempotencyKey: "rfd_test", bankReference: capture.bankReference, amount: 5000, nowMs: T0 });

    const after = newBank();
    const ask = { bankReference: capture.bankReference, refundReference: refund.bankReference ?? "" };
    expect((await after.refundStatus({ ...ask, nowMs: T0 + 1 })).status).toBe("pending");
    expect((await after.refundStatus({ ...ask, nowMs: T0 + SIM_REFUND_PENDING_MS })).status).toBe("approved");
  });

  it("declines refunds of a reference it never issued", async () => {
    const bank = newBank();
    expect(await bank.refund({ idempotencyKey: "rfd_test", bankReference: "SIM-A-nothex", amount: 100, nowMs: T0 })).toMatchObject({
      status: "declined",
      procReturnCode: "99",
      bankReference: null,
    });
    const status = await bank.refundStatus({ bankReference: "SIM-A-0123456789ABCDEF", refundReference: "junk", nowMs: T0 });
    expect(status.status).toBe("declined");
  });
});

describe("product 9 payouts", () => {
  it("pays a batch to an account and fails without one", async () => {
    const bank = newBank();
    const paid = await bank.payout!({
      idempotencyKey: "pob_test",
      partnerId: "ptn_demo",
      amount: 10000,
      payoutAccount: "TR000000000000000000000000",
      nowMs: T0,
    });
    expect(paid).toMatchObject({ status: "paid", bankReference: expect.stringMatching(/^SIMPO-[0-9A-F]{16}$/) });
    expect(
      await bank.payout!({ idempotencyKey: "pob_test", partnerId: "ptn_demo", amount: 10000, payoutAccount: null, nowMs: T0 }),
    ).toEqual({
      status: "failed",
      reason: "no_payout_account",
    });
    expect(await bank.payout!({ idempotencyKey: "pob_test", partnerId: "ptn_demo", amount: 0, payoutAccount: "TR00", nowMs: T0 })).toEqual({
      status: "failed",
      reason: "invalid_amount",
    });
  });
});
