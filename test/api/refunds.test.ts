import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { capture } from "../support/kasa-process";
import { MONEY_SEED } from "../support/money-fixtures";

// T0 is 12:00 Istanbul; the day end runs 12 hours later, at 00:00.
const TO_DAY_END = 12 * HOUR_MS;
const AMOUNT = 10_000;

let h: Harness;
afterEach(async () => h?.close());

let codeSeq = 0;
const code = () => `R-${++codeSeq}`;
const refundsPath = (pay: string, endpoint: "auto" | "void" | "credit") =>
  `/v1/payments/${pay}/refunds${endpoint === "auto" ? "" : `/${endpoint}`}`;

type Row = {
  endpoint: "auto" | "void" | "credit";
  day: "same" | "after";
  amount: "omitted" | "null" | "remaining" | "partial";
  priorCredit: boolean;
  terminal: "T-1" | "T-DIRECT";
  expected: "void" | "credit" | "refund_not_yet_available" | "refund_method_not_available" | "direct_refund_not_allowed";
};

const row = (
  endpoint: Row["endpoint"],
  day: Row["day"],
  amount: Row["amount"],
  expected: Row["expected"],
  more: Partial<Row> = {},
): Row => ({
  endpoint,
  day,
  amount,
  expected,
  priorCredit: false,
  terminal: "T-1",
  ...more,
});

const CREDIT = { priorCredit: true };
const DIRECT = { terminal: "T-DIRECT" as const };

// product 9, rule by rule ("same" = the capture's Istanbul day, before day end; "after" = after it).
const METHOD_TABLE: Row[] = [
  row("auto", "same", "omitted", "void"),
  row("auto", "same", "null", "void"),
  row("auto", "same", "remaining", "void"),
  row("auto", "same", "partial", "refund_not_yet_available"),
  row("auto", "after", "omitted", "credit"),
  row("auto", "after", "partial", "credit"),
  row("auto", "same", "omitted", "credit", CREDIT),
  row("void", "same", "omitted", "void"),
  row("void", "same", "remaining", "void"),
  row("void", "same", "partial", "refund_method_not_available"),
  row("void", "after", "omitted", "refund_method_not_available"),
  row("void", "same", "omitted", "refund_method_not_available", CREDIT),
  row("credit", "same", "omitted", "credit"),
  row("credit", "same", "partial", "credit"),
  row("credit", "after", "partial", "credit"),
  row("credit", "after", "null", "credit", CREDIT),
  row("auto", "same", "omitted", "void", DIRECT),
  row("void", "same", "null", "void", DIRECT),
  row("auto", "same", "partial", "direct_refund_not_allowed", DIRECT),
  row("auto", "after", "omitted", "direct_refund_not_allowed", DIRECT),
  row("void", "after", "omitted", "direct_refund_not_allowed", DIRECT),
  row("void", "same", "partial", "direct_refund_not_allowed", DIRECT),
  row("credit", "same", "omitted", "direct_refund_not_allowed", DIRECT),
];

function bodyOf(amount: Row["amount"], remaining: number): Record<string, unknown> {
  const partnerRefundCode = code();
  if (amount === "omitted") return { partnerRefundCode };
  if (amount === "null") return { amount: null, partnerRefundCode };
  return { amount: amount === "remaining" ? remaining : 1_234, partnerRefundCode };
}

describe("product 9 / interface 4.10, 4.13: which refund method each endpoint takes", () => {
  it.each(METHOD_TABLE)("$endpoint, $day day, amount $amount, prior credit $priorCredit, $terminal -> $expected", async (r) => {
    h = await harness({ seed: MONEY_SEED });
    const pay = await capture(h, { amount: AMOUNT, terminalId: r.terminal });
    let remaining = AMOUNT;
    if (r.priorCredit) {
      const prior = await h.post(refundsPath(pay, "credit"), { amount: 1_000, partnerRefundCode: code() });
      expect(prior.json).toMatchObject({ method: "credit", status: "approved" });
      remaining -= 1_000;
    }
    if (r.day === "after") await h.advance(TO_DAY_END);
    const body = bodyOf(r.amount, remaining);
    const res = await h.post(refundsPath(pay, r.endpoint), body);
    if (r.expected === "void" || r.expected === "credit") {
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ refundId: expect.stringMatching(/^rfd_[0-9a-z]{20}$/), method: r.expected, status: "approved" });
      const refunded = typeof body.amount === "number" ? body.amount : remaining;
      const payment = (await h.get(`/v1/payments/${pay}`)).json;
      const whole = refunded === remaining;
      expect(payment.status).toBe(!whole ? "captured" : r.expected === "void" ? "voided" : "refunded");
      expect((await h.store.q.payments.get(pay))?.refundedAmount).toBe(AMOUNT - remaining + refunded);
    } else {
      expect(res.status).toBe(422);
      expect(res.json.error.code).toBe(r.expected);
      expect((await h.store.q.payments.get(pay))?.refundedAmount).toBe(AMOUNT - remaining);
    }
  });

  it("a capture made just before midnight is no longer voidable at 00:00 (the day end settled it)", async () => {
    h = await harness();
    await h.advance(TO_DAY_END - 60_000);
    const pay = await capture(h);
    await h.advance(60_000);
    expect((await h.store.q.payments.get(pay))?.settledDay).toBe("2026-11-20");
    expect((await h.post(refundsPath(pay, "void"), { partnerRefundCode: code() })).json.error.code).toBe("refund_method_not_available");
    expect((await h.post(refundsPath(pay, "auto"), { partnerRefundCode: code() })).json).toMatchObject({
      method: "credit",
      status: "approved",
    });
  });

  it("partial credits reduce the remainder; the last one makes the payment refunded (product 5)", async () => {
    h = await harness();
    const pay = await capture(h, { amount: AMOUNT });
    for (const amount of [3_000, 3_000, 4_000]) {
      expect((await h.post(refundsPath(pay, "credit"), { amount, partnerRefundCode: code() })).status).toBe(201);
    }
    expect(await h.store.q.payments.get(pay)).toMatchObject({ status: "refunded", refundedAmount: AMOUNT });
    const again = await h.post(refundsPath(pay, "credit"), { amount: 1, partnerRefundCode: code() });
    expect(again.json.error.code).toBe("payment_not_refundable");
  });
});

describe("interface 2.3 refunds array and 2.4 refund record", () => {
  it("the payment record lists every refund oldest first; GET refund shows the 2.4 record", async () => {
    h = await harness();
    const pay = await capture(h, { amount: AMOUNT });
    const first = await h.post(refundsPath(pay, "credit"), { amount: 2_500, partnerRefundCode: code() });
    await h.advance(1_000);
    const second = await h.post(refundsPath(pay, "credit"), { partnerRefundCode: code() });
    const record = (await h.get(`/v1/payments/${pay}`)).json;
    expect(record.status).toBe("refunded");
    expect(record.refunds).toEqual([
      {
        refundId: first.json.refundId,
        amount: 2_500,
        status: "approved",
        createdAt: "2026-11-20T09:00:00.000Z",
        updatedAt: "2026-11-20T09:00:00.000Z",
      },
      {
        refundId: second.json.refundId,
        amount: 7_500,
        status: "approved",
        createdAt: "2026-11-20T09:00:01.000Z",
        updatedAt: "2026-11-20T09:00:01.000Z",
      },
    ]);
    const got = await h.get(`/v1/payments/${pay}/refunds/${first.json.refundId}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      refundId: first.json.refundId,
      method: "credit",
      status: "approved",
      amount: 2_500,
      procReturnCode: "00",
      authCode: expect.stringMatching(/^\d{6}$/),
      errMsg: null,
      bankReference: expect.stringMatching(/^SIMRF-/),
      createdAt: "2026-11-20T09:00:00.000Z",
      updatedAt: "2026-11-20T09:00:00.000Z",
    });
  });

  it("a payment without refunds has an empty array", async () => {
    h = await harness();
    const pay = await capture(h);
    expect((await h.get(`/v1/payments/${pay}`)).json.refunds).toEqual([]);
  });

  it.each([
    ["an unknown refund id", "mine", "rfd_00000000000000000000"],
    ["another payment's refund", "other-payment", null],
    ["another partner's refund (its own payment path)", "other-partner", null],
    ["an unknown payment code", "unknown-payment", null],
  ] as const)("interface 4.11: %s is 404 refund_not_found", async (_name, kind, fixedId) => {
    h = await harness();
    const pay = await capture(h);
    const otherPay = await capture(h);
    const theirs = await capture(h, { terminalId: "T-OTHER", key: "kasa_sk_other_cccccccccccccccccccccccccccccc" });
    const mine = (await h.post(refundsPath(pay, "credit"), { amount: 100, partnerRefundCode: code() })).json.refundId;
    const theirRefund = (
      await h.post(
        refundsPath(theirs, "credit"),
        { amount: 100, partnerRefundCode: code() },
        { key: "kasa_sk_other_cccccccccccccccccccccccccccccc" },
      )
    ).json.refundId;
    expect((await h.get(`/v1/payments/${pay}/refunds/${mine}`)).status).toBe(200);
    const path = {
      mine: `/v1/payments/${pay}/refunds/${fixedId}`,
      "other-payment": `/v1/payments/${otherPay}/refunds/${mine}`,
      "other-partner": `/v1/payments/${theirs}/refunds/${theirRefund}`,
      "unknown-payment": `/v1/payments/pay_00000000000000000000/refunds/${mine}`,
    }[kind];
    const res = await h.get(path);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("refund_not_found");
  });
});
