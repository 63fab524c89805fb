import { afterEach, describe, expect, it } from "vitest";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import { HOUR_MS, MINUTE_MS } from "../../src/limits";
import { OTHER_KEY } from "../support/fixtures";
import { formClient } from "../../src/http/sandbox/form-client";
import { harness, type Harness } from "../support/harness";
import { BASE, capture } from "../support/kasa-process";
import { MONEY_SEED } from "../support/money-fixtures";

// interface 7.2 and product 9 / 16: every refusal of the refund endpoints, and the precedence of
// src/domain/refunds/rules.ts walked in the same order.

const TO_DAY_END = 12 * HOUR_MS;
const PENDING_CARD = "5400001300000000";

let h: Harness;
afterEach(async () => h?.close());

let seq = 0;
const code = () => `E-${++seq}`;
const credit = (pay: string, body: Record<string, unknown>, key?: string) =>
  h.post(`/v1/payments/${pay}/refunds/credit`, body, key === undefined ? undefined : { key });

const hold = (partner = "ptn_test") =>
  applySeed(h.store, parseSeed({ holds: [{ partner, reason: "admin_hold" }] }), h.clock.nowMs(), () => "key_unused");

async function initiated(): Promise<string> {
  const r = await h.post("/v1/payments", {
    amount: 10_000,
    partnerTxCode: `E-order-${++seq}`,
    terminalId: "T-1",
    returnUrl: "https://shop.example/done",
  });
  return r.json.paymentCode as string;
}

/** 3D authentication fails on this card: the payment ends `failed`. */
async function failed(): Promise<string> {
  const r = await h.post("/v1/payments", {
    amount: 10_000,
    partnerTxCode: `E-order-${++seq}`,
    terminalId: "T-1",
    returnUrl: "https://shop.example/done",
  });
  const client = formClient((url, init) => h.runtime.app.request(url, init), [BASE]);
  const acs = await client.post(`${BASE}/handoff`, {
    paymentRef: r.json.paymentRef,
    pan: "4000008800000007",
    expireMonth: "12",
    expireYear: "34",
    cv2: "123",
  });
  const done = await client.submit(acs.page!.forms[0]!, { otp: "123456" }, "confirm");
  expect(done.leftTo).toContain("status=failed");
  return r.json.paymentCode as string;
}

async function voided(): Promise<string> {
  const pay = await capture(h);
  expect((await h.post(`/v1/payments/${pay}/refunds/void`, { partnerRefundCode: code() })).json.status).toBe("approved");
  return pay;
}

async function refunded(): Promise<string> {
  const pay = await capture(h);
  expect((await credit(pay, { partnerRefundCode: code() })).json.status).toBe("approved");
  return pay;
}

async function expired(): Promise<string> {
  const pay = await initiated();
  await h.advance(30 * MINUTE_MS);
  return pay;
}

describe("interface 7.2: 400 validation_error for a bad body (product 2, 3, 16)", () => {
  it.each([
    ["amount 0", { amount: 0, partnerRefundCode: "X" }, "amount: must be >= 1"],
    ["amount negative", { amount: -5, partnerRefundCode: "X" }, "amount: must be >= 1"],
    ["amount fractional", { amount: 1.5, partnerRefundCode: "X" }, "amount: must be a safe integer"],
    ["amount a string", { amount: "100", partnerRefundCode: "X" }, "amount: must be an integer"],
    ["amount above 2^53", { amount: 2 ** 53, partnerRefundCode: "X" }, "amount: must be a safe integer"],
    ["partnerRefundCode missing", { amount: 100 }, "partnerRefundCode: is required"],
    ["partnerRefundCode empty", { partnerRefundCode: "" }, "partnerRefundCode: must not be empty"],
    ["partnerRefundCode too long", { partnerRefundCode: "x".repeat(65) }, "partnerRefundCode: must be at most 64 characters"],
    ["partnerRefundCode a number", { partnerRefundCode: 7 }, "partnerRefundCode: must be a string"],
    ["an unknown field", { partnerRefundCode: "X", method: "void" }, "method: unknown field"],
  ])("%s", async (_name, body, message) => {
    h = await harness();
    const pay = await capture(h);
    for (const suffix of ["", "/void", "/credit"]) {
      const res = await h.post(`/v1/payments/${pay}/refunds${suffix}`, body);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: "validation_error", message });
    }
    expect(await h.store.q.refunds.ofPayment(pay)).toEqual([]);
  });
});

describe("interface 7.2: payment_not_found, payment_not_refundable, refund_amount_exceeds_remaining", () => {
  it("404 payment_not_found for an unknown code and for another partner's payment", async () => {
    h = await harness();
    const theirs = await capture(h, { terminalId: "T-OTHER", key: OTHER_KEY });
    for (const pay of ["pay_00000000000000000000", theirs]) {
      const res = await credit(pay, { partnerRefundCode: code() });
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe("payment_not_found");
    }
  });

  it.each([
    ["initiated", initiated],
    ["failed", failed],
    ["expired", expired],
    ["voided", voided],
    ["refunded", refunded],
  ] as const)("422 payment_not_refundable on a %s payment, on all three endpoints", async (status, make) => {
    h = await harness();
    const pay = await make();
    expect((await h.store.q.payments.get(pay))?.status).toBe(status);
    for (const suffix of ["", "/void", "/credit"]) {
      const res = await h.post(`/v1/payments/${pay}/refunds${suffix}`, { partnerRefundCode: code() });
      expect(res.status).toBe(422);
      expect(res.json.error.code).toBe("payment_not_refundable");
    }
  });

  it("422 refund_amount_exceeds_remaining above the remainder (approved refunds count); the remainder itself passes", async () => {
    h = await harness();
    const pay = await capture(h, { amount: 10_000 });
    expect((await credit(pay, { amount: 10_001, partnerRefundCode: code() })).json.error.code).toBe("refund_amount_exceeds_remaining");
    await credit(pay, { amount: 4_000, partnerRefundCode: code() });
    const over = await credit(pay, { amount: 6_001, partnerRefundCode: code() });
    expect(over.status).toBe(422);
    expect(over.json.error).toMatchObject({
      code: "refund_amount_exceeds_remaining",
      message: "amount: must be <= 6000, the remaining balance",
    });
    expect((await credit(pay, { amount: 6_000, partnerRefundCode: code() })).json.status).toBe("approved");
  });
});

describe("interface 7.2: 409 refund_in_progress (product 9)", () => {
  it("a partnerRefundCode is unique per partner: reused on the same or another payment, even after a decline", async () => {
    h = await harness();
    const a = await capture(h);
    const b = await capture(h);
    const declining = await capture(h, { pan: "4000001500000005" });
    expect((await credit(a, { amount: 100, partnerRefundCode: "SAME" })).status).toBe(201);
    expect((await credit(declining, { amount: 100, partnerRefundCode: "DECLINED" })).json.status).toBe("declined");
    for (const [pay, refundCode] of [
      [a, "SAME"],
      [b, "SAME"],
      [a, "DECLINED"],
    ] as const) {
      const res = await credit(pay, { amount: 100, partnerRefundCode: refundCode });
      expect(res.status).toBe(409);
      expect(res.json.error).toMatchObject({ code: "refund_in_progress", message: "partnerRefundCode: already used" });
    }
    // Another partner's identical code is unrelated.
    const theirs = await capture(h, { terminalId: "T-OTHER", key: OTHER_KEY });
    expect((await credit(theirs, { amount: 100, partnerRefundCode: "SAME" }, OTHER_KEY)).status).toBe(201);
  });

  it("a pending refund blocks any new refund of the payment until the bank answers", async () => {
    h = await harness();
    const pay = await capture(h, { pan: PENDING_CARD });
    const first = await credit(pay, { amount: 1_000, partnerRefundCode: code() });
    expect(first.json).toMatchObject({ method: "credit", status: "pending" });
    const blocked = await credit(pay, { amount: 1_000, partnerRefundCode: code() });
    expect(blocked.status).toBe(409);
    expect(blocked.json.error.code).toBe("refund_in_progress");
    await h.advance(60_000);
    expect((await credit(pay, { amount: 1_000, partnerRefundCode: code() })).status).toBe(201);
  });
});

describe("interface 7.2: 403 partner_not_active (product 10)", () => {
  it.each(["", "/void", "/credit"])("an admin hold blocks POST …/refunds%s; GET refund still answers", async (suffix) => {
    h = await harness();
    const pay = await capture(h);
    const before = (await credit(pay, { amount: 100, partnerRefundCode: code() })).json.refundId;
    await hold();
    const res = await h.post(`/v1/payments/${pay}/refunds${suffix}`, { partnerRefundCode: code() });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("partner_not_active");
    expect((await h.get(`/v1/payments/${pay}/refunds/${before}`)).status).toBe(200);
  });
});

type Case = { name: string; expected: string; setup(): Promise<{ path: string; body: Record<string, unknown> }> };

// Each row breaks the rule it names AND a later one: the earlier rule must win (rules.ts order).
const PRECEDENCE: Case[] = [
  {
    name: "1 body shape over partner_not_active",
    expected: "validation_error",
    async setup() {
      const pay = await capture(h);
      await hold();
      return { path: `/v1/payments/${pay}/refunds`, body: { amount: 0, partnerRefundCode: code() } };
    },
  },
  {
    name: "2 partner_not_active over payment_not_found",
    expected: "partner_not_active",
    async setup() {
      await hold();
      return { path: "/v1/payments/pay_00000000000000000000/refunds", body: { partnerRefundCode: code() } };
    },
  },
  {
    name: "3 payment_not_found over a reused partnerRefundCode",
    expected: "payment_not_found",
    async setup() {
      const pay = await capture(h);
      await credit(pay, { amount: 100, partnerRefundCode: "USED" });
      return { path: "/v1/payments/pay_00000000000000000000/refunds", body: { partnerRefundCode: "USED" } };
    },
  },
  {
    name: "4 a reused partnerRefundCode over payment_not_refundable",
    expected: "refund_in_progress",
    async setup() {
      const pay = await capture(h);
      await h.post(`/v1/payments/${pay}/refunds`, { partnerRefundCode: "USED" });
      return { path: `/v1/payments/${pay}/refunds`, body: { partnerRefundCode: "USED" } };
    },
  },
  {
    name: "5 payment_not_refundable over refund_amount_exceeds_remaining",
    expected: "payment_not_refundable",
    async setup() {
      return { path: `/v1/payments/${await initiated()}/refunds/credit`, body: { amount: 99_999, partnerRefundCode: code() } };
    },
  },
  {
    name: "6 a pending refund over refund_amount_exceeds_remaining",
    expected: "refund_in_progress",
    async setup() {
      const pay = await capture(h, { pan: PENDING_CARD });
      await credit(pay, { amount: 100, partnerRefundCode: code() });
      return { path: `/v1/payments/${pay}/refunds/credit`, body: { amount: 99_999, partnerRefundCode: code() } };
    },
  },
  {
    name: "7 refund_amount_exceeds_remaining over direct_refund_not_allowed",
    expected: "refund_amount_exceeds_remaining",
    async setup() {
      const pay = await capture(h, { terminalId: "T-DIRECT" });
      return { path: `/v1/payments/${pay}/refunds/credit`, body: { amount: 99_999, partnerRefundCode: code() } };
    },
  },
  {
    name: "8 direct_refund_not_allowed over refund_not_yet_available (product 16)",
    expected: "direct_refund_not_allowed",
    async setup() {
      const pay = await capture(h, { terminalId: "T-DIRECT" });
      return { path: `/v1/payments/${pay}/refunds`, body: { amount: 100, partnerRefundCode: code() } };
    },
  },
  {
    name: "8 direct_refund_not_allowed over refund_method_not_available",
    expected: "direct_refund_not_allowed",
    async setup() {
      const pay = await capture(h, { terminalId: "T-DIRECT" });
      await h.advance(TO_DAY_END);
      return { path: `/v1/payments/${pay}/refunds/void`, body: { partnerRefundCode: code() } };
    },
  },
];

describe("product 3, 9: refusals come in the fixed precedence of rules.ts", () => {
  it.each(PRECEDENCE)("$name", async (c) => {
    h = await harness({ seed: MONEY_SEED });
    const { path, body } = await c.setup();
    const before = (await h.store.q.refunds.ofPayment(path.split("/")[3]!)).length;
    const res = await h.post(path, body);
    expect(res.json.error.code).toBe(c.expected);
    expect((await h.store.q.refunds.ofPayment(path.split("/")[3]!)).length).toBe(before);
  });
});

describe("product 12: refunds draw on the reads.key budget", () => {
  it("payment lookups and refunds share 300/min per key; the refusal carries Retry-After 60 and writes nothing", async () => {
    h = await harness({ limits: { "gate.ip": 10_000, "gate.platform": 10_000, "reads.key": 2 } });
    const pay = await capture(h);
    expect((await h.get(`/v1/payments/${pay}`)).status).toBe(200);
    expect((await credit(pay, { amount: 100, partnerRefundCode: code() })).status).toBe(201);
    const refused = await credit(pay, { amount: 100, partnerRefundCode: code() });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await h.store.q.refunds.ofPayment(pay)).toHaveLength(1);
  });
});
