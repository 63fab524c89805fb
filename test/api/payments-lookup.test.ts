import { afterEach, describe, expect, it } from "vitest";
import { toPaymentJson } from "../../src/domain/payments/view";
import { MINUTE_MS } from "../../src/limits";
import type { PaymentStatus } from "../../src/store/rows-money";
import { OTHER_KEY } from "../support/fixtures";
import { harness, type Harness } from "../support/harness";
import { capturedPayment, createPayment, pay, paymentRow } from "./payments-flow";

let h: Harness;
afterEach(async () => h?.close());

const RECORD_FIELDS = [
  "amount",
  "appliedFixedFee",
  "appliedRateBps",
  "cardBank",
  "cardFamily",
  "commissionAmount",
  "currency",
  "expectedValueDate",
  "installmentCount",
  "maskedPan",
  "netToPartner",
  "partnerTxCode",
  "paymentCode",
  "refunds",
  "status",
];

const setStatus = (h: Harness, code: string, status: string) =>
  h.store.write(async (tx) => await tx.fixtures.patchPayment(code, { status: status as PaymentStatus }));

describe("interface 2.3 payment record", () => {
  it("has exactly the 2.3 fields; card and commission fields are null before 3D starts", async () => {
    h = await harness();
    const c = await createPayment(h, { partnerTxCode: "rec-1", amount: 12_345, installment: 3 });
    const r = await h.get(`/v1/payments/${c.json.paymentCode}`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(RECORD_FIELDS);
    expect(r.json).toEqual({
      paymentCode: c.json.paymentCode,
      partnerTxCode: "rec-1",
      status: "initiated",
      amount: 12_345,
      currency: "TRY",
      installmentCount: 3,
      maskedPan: null,
      cardFamily: null,
      cardBank: null,
      appliedRateBps: null,
      appliedFixedFee: null,
      commissionAmount: null,
      netToPartner: null,
      expectedValueDate: null,
      refunds: [],
    });
  });

  it("after capture it carries the card, the applied rate and the product 5 amounts", async () => {
    h = await harness();
    const code = await capturedPayment(h, { amount: 10_000 });
    const r = await h.get(`/v1/payments/${code}`);
    expect(r.json).toMatchObject({
      status: "captured",
      maskedPan: "400000******0009",
      cardFamily: "credit",
      cardBank: "Demo Bank A",
      appliedRateBps: 199,
      appliedFixedFee: null,
      commissionAmount: 199,
      netToPartner: 9_801,
      expectedValueDate: "2026-11-21",
      refunds: [],
    });
  });

  it("the refunds seam: toPaymentJson renders the refund summaries it is given", () => {
    const json = toPaymentJson(
      { code: "pay_x", partnerTxCode: "o", status: "captured", amount: 1, currency: "TRY", installment: 1 } as never,
      [{ refundId: "rfd_1", amount: 1, status: "approved", createdAtMs: 0, updatedAtMs: 1 }],
    );
    expect(json.refunds).toEqual([
      { refundId: "rfd_1", amount: 1, status: "approved", createdAt: "1970-01-01T00:00:00.000Z", updatedAt: "1970-01-01T00:00:00.001Z" },
    ]);
  });
});

describe("interface 4.13 GET /v1/payments/{paymentCode}: any state, partner-scoped", () => {
  it.each(["initiated", "captured", "failed", "expired", "voided", "refunded"])("%s payments are found", async (status) => {
    h = await harness();
    const c = await createPayment(h);
    await setStatus(h, c.json.paymentCode, status);
    const r = await h.get(`/v1/payments/${c.json.paymentCode}`);
    expect([r.status, r.json.status]).toEqual([200, status]);
  });

  it.each([
    ["unknown", async (): Promise<string> => "pay_00000000000000000000", undefined],
    ["another partner's", async (): Promise<string> => (await createPayment(h)).json.paymentCode as string, OTHER_KEY],
  ] as const)("an %s payment is 404 payment_not_found", async (_n, codeOf, key) => {
    h = await harness();
    const code = await codeOf();
    const r = await h.get(`/v1/payments/${code}`, key ? { key } : undefined);
    expect([r.status, r.json.error.code]).toEqual([404, "payment_not_found"]);
  });

  it("a payment past its window reads as expired even before the timer ran (product 16)", async () => {
    h = await harness();
    const c = await createPayment(h);
    h.clock.advance(30 * MINUTE_MS);
    const r = await h.get(`/v1/payments/${c.json.paymentCode}`);
    expect(r.json.status).toBe("expired");
  });
});

describe("interface 4.6 GET /v1/payments?partnerTxCode=: active payments only, partner-scoped", () => {
  it.each(["initiated", "captured", "voided", "refunded"])("an %s payment resolves", async (status) => {
    h = await harness();
    const c = await createPayment(h, { partnerTxCode: "look-1" });
    await setStatus(h, c.json.paymentCode, status);
    const r = await h.get("/v1/payments?partnerTxCode=look-1");
    expect([r.status, r.json.paymentCode, r.json.status]).toEqual([200, c.json.paymentCode, status]);
    expect(Object.keys(r.json).sort()).toEqual(RECORD_FIELDS);
  });

  it.each(["failed", "expired"])("a %s payment is 404 payment_not_found (look it up by paymentCode)", async (status) => {
    h = await harness();
    const c = await createPayment(h, { partnerTxCode: "look-2" });
    await setStatus(h, c.json.paymentCode, status);
    const r = await h.get("/v1/payments?partnerTxCode=look-2");
    expect([r.status, r.json.error.code]).toEqual([404, "payment_not_found"]);
  });

  it("after a failed payment and a new one with the code, the new one resolves", async () => {
    h = await harness();
    const first = await createPayment(h, { partnerTxCode: "look-3" });
    await pay(h, first.json.paymentRef, "4000009900000004"); // capture rejected
    const second = await createPayment(h, { partnerTxCode: "look-3" });
    const r = await h.get("/v1/payments?partnerTxCode=look-3");
    expect(r.json.paymentCode).toBe(second.json.paymentCode);
  });

  it("another partner's code is 404; a code with URL characters is matched exactly", async () => {
    h = await harness();
    await createPayment(h, { partnerTxCode: "a&b=c d" });
    expect((await h.get("/v1/payments?partnerTxCode=a%26b%3Dc%20d")).status).toBe(200);
    expect((await h.get("/v1/payments?partnerTxCode=a%26b%3Dc%20d", { key: OTHER_KEY })).status).toBe(404);
    expect((await h.get("/v1/payments?partnerTxCode=a")).status).toBe(404);
  });

  it.each([
    ["missing", "/v1/payments"],
    ["empty", "/v1/payments?partnerTxCode="],
    ["too long", `/v1/payments?partnerTxCode=${"x".repeat(65)}`],
  ])("partnerTxCode %s is 400 validation_error", async (_n, path) => {
    h = await harness();
    const r = await h.get(path);
    expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
    expect(r.json.error.message).toContain("partnerTxCode");
  });
});

describe("interface 8 / product 12 budgets of the payment endpoints", () => {
  it("every create, replays included, draws on payments.create.key; 429 rate_limited with Retry-After 60", async () => {
    h = await harness({ limits: { "payments.create.key": 2 } });
    expect((await createPayment(h, { partnerTxCode: "b-1" })).status).toBe(201);
    expect((await createPayment(h, { partnerTxCode: "b-1" })).status).toBe(200);
    const r = await createPayment(h, { partnerTxCode: "b-2" });
    expect([r.status, r.json.error.code, r.headers.get("retry-after")]).toEqual([429, "rate_limited", "60"]);
  });

  it("both lookups share reads.key; a refused lookup reads nothing", async () => {
    h = await harness({ limits: { "reads.key": 2 } });
    const c = await createPayment(h, { partnerTxCode: "r-1" });
    expect((await h.get(`/v1/payments/${c.json.paymentCode}`)).status).toBe(200);
    expect((await h.get("/v1/payments?partnerTxCode=r-1")).status).toBe(200);
    const r = await h.get("/v1/payments/pay_unknown");
    expect([r.status, r.headers.get("retry-after")]).toEqual([429, "60"]);
  });

  it("lookups do not consume the create budget", async () => {
    h = await harness({ limits: { "payments.create.key": 1 } });
    const c = await createPayment(h);
    for (let i = 0; i < 3; i++) expect((await h.get(`/v1/payments/${c.json.paymentCode}`)).status).toBe(200);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("initiated");
  });
});
