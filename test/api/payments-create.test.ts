import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../src/limits";
import { OTHER_KEY } from "../support/fixtures";
import { harness, T0, type Harness } from "../support/harness";
import { capturedPayment, createBody, createPayment, pay, paymentCount, paymentRow, RETURN_URL, seedWith } from "./payments-flow";

let h: Harness;
afterEach(async () => h?.close());

describe("interface 4.5 create payment: body shape (400 validation_error, nothing created)", () => {
  it.each([
    ["amount missing", { amount: undefined }, "amount: is required"],
    ["amount 0", { amount: 0 }, "amount: must be >= 1"],
    ["amount negative", { amount: -100 }, "amount: must be >= 1"],
    ["amount fractional", { amount: 10.5 }, "amount:"],
    ["amount a string", { amount: "100" }, "amount:"],
    ["amount above MAX_SAFE_INTEGER (product 2)", { amount: 2 ** 53 }, "amount:"],
    ["installment 0 (product 16)", { installment: 0 }, "installment: must be >= 1"],
    ["installment fractional", { installment: 1.5 }, "installment:"],
    ["installment a string", { installment: "3" }, "installment:"],
    ["partnerTxCode missing", { partnerTxCode: undefined }, "partnerTxCode: is required"],
    ["partnerTxCode empty", { partnerTxCode: "" }, "partnerTxCode: must not be empty"],
    ["partnerTxCode too long", { partnerTxCode: "x".repeat(65) }, "partnerTxCode: must be at most 64"],
    ["terminalId missing", { terminalId: undefined }, "terminalId: is required"],
    ["terminalId empty", { terminalId: "" }, "terminalId: must not be empty"],
    ["description too long", { description: "d".repeat(501) }, "description: must be at most 500"],
    ["description a number", { description: 5 }, "description:"],
    ["returnUrl missing", { returnUrl: undefined }, "returnUrl: is required"],
    ["returnUrl relative", { returnUrl: "/done" }, "returnUrl: must be an absolute http or https URL"],
    ["returnUrl javascript:", { returnUrl: "javascript:alert(1)" }, "returnUrl: must be an absolute http or https URL"],
    ["returnUrl with userinfo", { returnUrl: "https://user@shop.example/done" }, "returnUrl: must not contain user information"],
    [
      "returnUrl host not on the allowed list",
      { returnUrl: "https://evil.example/done" },
      "returnUrl: host is not on the allowed host list",
    ],
    [
      "returnUrl host by suffix only",
      { returnUrl: "https://shop.example.evil.example/" },
      "returnUrl: host is not on the allowed host list",
    ],
    ["unknown field (product 3)", { currency: "TRY" }, "currency: unknown field"],
  ])("%s", async (_name, over, message) => {
    h = await harness();
    const r = await createPayment(h, over);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("validation_error");
    expect(r.json.error.message).toContain(message);
    expect(await paymentCount(h)).toBe(0);
  });

  it("a body that is not JSON is 400", async () => {
    h = await harness();
    const r = await h.post("/v1/payments", "amount=1", { headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("validation_error");
  });

  it("without an allowed-host list only the scheme is checked (4.1.1 applied to returnUrl)", async () => {
    h = await harness({ seed: seedWith({ partner: { allowedRedirectHosts: null } }) });
    expect((await createPayment(h, { returnUrl: "https://anywhere.example/x" })).status).toBe(201);
    expect((await createPayment(h, { returnUrl: "ftp://anywhere.example/x" })).status).toBe(400);
  });
});

describe("interface 4.5 / 2.2 create payment: the new payment", () => {
  it("answers 201 with the 2.2 body and no card or bank form data", async () => {
    h = await harness();
    const r = await createPayment(h, { partnerTxCode: "order-201" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.json).sort()).toEqual(["handoffUrl", "idempotentReplay", "paymentCode", "paymentRef", "status"]);
    expect(r.json).toMatchObject({ status: "initiated", handoffUrl: "http://kasa.test/handoff", idempotentReplay: false });
    expect(r.json.paymentCode).toMatch(/^pay_[0-9a-z]{20}$/);
    expect(r.json.paymentRef).toMatch(/^ref_[A-Za-z0-9_-]{32}$/);
    expect(r.json.paymentRef).not.toBe(r.json.paymentCode);
  });

  it.each([
    ["omitted", undefined, 1],
    ["null", null, 1],
    ["3", 3, 3],
  ])("installment %s is stored as %s (1 = single charge by default)", async (_n, installment, stored) => {
    h = await harness();
    const r = await createPayment(h, { installment });
    expect(r.status).toBe(201);
    expect((await paymentRow(h, r.json.paymentCode)).installment).toBe(stored);
  });

  it.each([
    ["standard", 30 * MINUTE_MS],
    ["extended", 135 * MINUTE_MS],
  ] as const)("interface 3.2 / 8: the 3D window on a %s terminal ends at creation + %i ms", async (infrastructure, windowMs) => {
    h = await harness({
      seed: seedWith({
        terminals: [
          { id: "T-X", partner: "ptn_test", connection: "vpos-1", installments: [1], infrastructure, rates: [{ count: 1, rateBps: 100 }] },
        ],
      }),
    });
    const r = await createPayment(h, { terminalId: "T-X" });
    expect(await paymentRow(h, r.json.paymentCode)).toMatchObject({
      expiresAtMs: T0 + windowMs,
      createdAtMs: T0,
      channel: "api",
      principal: 10_000,
    });
  });

  it("stores the normalised returnUrl and the description", async () => {
    h = await harness();
    const r = await createPayment(h, { returnUrl: "HTTPS://Shop.Example/done?o=1", description: "Sipariş 7" });
    expect(await paymentRow(h, r.json.paymentCode)).toMatchObject({ returnUrl: "https://shop.example/done?o=1", description: "Sipariş 7" });
  });
});

describe("interface 4.5 create payment: business rules", () => {
  it.each([
    ["inactive", "T-OFF"],
    ["another partner's", "T-OTHER"],
    ["unknown", "T-NOPE"],
  ])("an %s terminal is 403 terminal_not_allowed", async (_n, terminalId) => {
    h = await harness();
    const r = await createPayment(h, { terminalId });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("terminal_not_allowed");
    expect(await paymentCount(h)).toBe(0);
  });

  it.each([
    ["suspended", seedWith({ partner: { status: "suspended" } })],
    ["closed", seedWith({ partner: { status: "closed" } })],
    ["on admin hold", seedWith({ holds: [{ partner: "ptn_test", reason: "admin_hold" }] })],
  ])("a partner %s is 403 partner_not_active (product 10)", async (_n, seed) => {
    h = await harness({ seed });
    const r = await createPayment(h);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("partner_not_active");
  });

  it.each([
    [99, 422],
    [100, 201],
    [50_000, 201],
    [50_001, 422],
  ])("account min 100 / max 50000: amount %i -> %i (amount_limit_exceeded, bounds inclusive)", async (amount, status) => {
    h = await harness({ seed: seedWith({ partner: { amountLimits: { min: 100, max: 50_000 } } }) });
    const r = await createPayment(h, { amount });
    expect(r.status).toBe(status);
    if (status === 422) expect(r.json.error.code).toBe("amount_limit_exceeded");
  });

  it.each([
    ["T-1", 4, null, 422],
    ["T-1", 12, null, 201],
    ["T-1", 9, 6, 422],
    ["T-1", 6, 6, 201],
    ["T-NET", 2, null, 422],
    ["T-NET", 6, null, 201],
  ])(
    "terminal %s, installment %i, partner cap %s -> %i (7.4 reason 2: the effective set)",
    async (terminalId, installment, cap, status) => {
      h = await harness({ seed: seedWith({ partner: { installmentCap: cap } }) });
      const r = await createPayment(h, { terminalId, installment });
      expect(r.status).toBe(status);
      if (status === 422) expect(r.json.error.code).toBe("installment_not_allowed");
    },
  );
});

describe("interface 4.5 precedence of create's refusals (fixed order, documented in create.ts)", () => {
  it("walks body -> returnUrl -> terminal -> partner -> idempotency -> amount -> installment -> connection limits", async () => {
    h = await harness({
      seed: seedWith({
        partner: { amountLimits: { min: 100, max: 1_000_000 } },
        connection: { limits: { perTxMax: 500_000 } },
        holds: [{ partner: "ptn_test", reason: "admin_hold" }],
      }),
    });
    await h.store.write(async (tx) => await tx.acceptance.clearHold("ptn_test", "admin_hold"));
    const held = await createPayment(h, { partnerTxCode: "walk", amount: 5_000 });
    expect(held.status).toBe(201);
    await h.store.write(async (tx) => await tx.acceptance.setHold({ partnerId: "ptn_test", reason: "admin_hold", sinceMs: T0 }));

    const worst = createBody({
      partnerTxCode: "walk",
      terminalId: "T-OFF",
      amount: 600_000,
      installment: 4,
      returnUrl: "https://evil.example/",
    });
    const steps: Array<[Record<string, unknown>, number, string]> = [
      [{ ...worst, extra: 1 }, 400, "validation_error"],
      [worst, 400, "validation_error"],
      [{ ...worst, returnUrl: RETURN_URL }, 403, "terminal_not_allowed"],
      [{ ...worst, returnUrl: RETURN_URL, terminalId: "T-1" }, 403, "partner_not_active"],
    ];
    for (const [body, status, code] of steps) {
      const r = await h.post("/v1/payments", body);
      expect([r.status, r.json.error?.code]).toEqual([status, code]);
    }
    await h.store.write(async (tx) => await tx.acceptance.clearHold("ptn_test", "admin_hold"));
    const rest: Array<[Record<string, unknown>, number, string | undefined]> = [
      [{ ...worst, returnUrl: RETURN_URL, terminalId: "T-1" }, 409, "duplicate_partner_tx_code"],
      [{ ...worst, returnUrl: RETURN_URL, terminalId: "T-1", partnerTxCode: "walk-2", amount: 2_000_000 }, 422, "amount_limit_exceeded"],
      [{ ...worst, returnUrl: RETURN_URL, terminalId: "T-1", partnerTxCode: "walk-2" }, 422, "installment_not_allowed"],
      [{ ...worst, returnUrl: RETURN_URL, terminalId: "T-1", partnerTxCode: "walk-2", installment: 3 }, 422, "pos_per_tx_limit_exceeded"],
      [{ ...worst, returnUrl: RETURN_URL, terminalId: "T-1", partnerTxCode: "walk-2", installment: 3, amount: 500_000 }, 201, undefined],
    ];
    for (const [body, status, code] of rest) {
      const r = await h.post("/v1/payments", body);
      expect([r.status, r.json.error?.code]).toEqual([status, code]);
    }
  });
});

describe("interface 7.5 / product 4 connection limits at creation (422, nothing created, code not consumed)", () => {
  const friday = T0; // 2026-11-20 12:00 Istanbul, a Friday

  it("pos_per_tx_limit_exceeded above perTxMax; perTxMax itself is allowed", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { perTxMax: 50_000 } } }) });
    const r = await createPayment(h, { amount: 50_001, partnerTxCode: "big" });
    expect([r.status, r.json.error.code]).toEqual([422, "pos_per_tx_limit_exceeded"]);
    expect(await paymentCount(h)).toBe(0);
    expect((await createPayment(h, { amount: 50_000, partnerTxCode: "big" })).status).toBe(201);
  });

  it("pos_daily_limit_exceeded by Istanbul day; the code is free again once the day turns", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { dailyMax: 30_000 } } }) });
    await capturedPayment(h, { amount: 20_000 });
    const r = await createPayment(h, { amount: 10_001, partnerTxCode: "day" });
    expect([r.status, r.json.error.code]).toEqual([422, "pos_daily_limit_exceeded"]);
    expect(await paymentCount(h)).toBe(1);
    h.clock.set(Date.parse("2026-11-20T20:59:59.999Z")); // 23:59:59.999 Istanbul
    expect((await createPayment(h, { amount: 10_001, partnerTxCode: "day" })).status).toBe(422);
    h.clock.set(Date.parse("2026-11-20T21:00:00.000Z")); // 00:00 Istanbul, the next day
    expect((await createPayment(h, { amount: 10_001, partnerTxCode: "day" })).status).toBe(201);
  });

  it("reaching the daily limit exactly is allowed", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { dailyMax: 30_000 } } }) });
    expect((await createPayment(h, { amount: 20_000 })).status).toBe(201);
    expect((await createPayment(h, { amount: 10_000 })).status).toBe(201);
    expect((await createPayment(h, { amount: 1 })).status).toBe(422);
  });

  it("pos_weekly_limit_exceeded by ISO week (Monday 00:00 Istanbul)", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { weeklyMax: 30_000 } } }) });
    await capturedPayment(h, { amount: 20_000 });
    h.clock.set(Date.parse("2026-11-22T20:59:59.999Z")); // Sunday 23:59:59.999 Istanbul
    const r = await createPayment(h, { amount: 10_001 });
    expect([r.status, r.json.error.code]).toEqual([422, "pos_weekly_limit_exceeded"]);
    h.clock.set(Date.parse("2026-11-22T21:00:00.000Z")); // Monday 00:00 Istanbul
    expect((await createPayment(h, { amount: 10_001 })).status).toBe(201);
  });

  it("pos_monthly_limit_exceeded by Istanbul month", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { monthlyMax: 30_000 } } }) });
    await capturedPayment(h, { amount: 20_000 });
    h.clock.set(Date.parse("2026-11-30T20:59:59.999Z"));
    const r = await createPayment(h, { amount: 10_001 });
    expect([r.status, r.json.error.code]).toEqual([422, "pos_monthly_limit_exceeded"]);
    h.clock.set(Date.parse("2026-11-30T21:00:00.000Z")); // 1 December 00:00 Istanbul
    expect((await createPayment(h, { amount: 10_001 })).status).toBe(201);
  });

  it("pos_time_window_limit_exceeded over the rolling window (created after now − window)", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { window: { minutes: 10, maxAmount: 30_000 } } } }) });
    expect((await createPayment(h, { amount: 20_000 })).status).toBe(201);
    h.clock.set(friday + 10 * MINUTE_MS - 1);
    const r = await createPayment(h, { amount: 10_001 });
    expect([r.status, r.json.error.code]).toEqual([422, "pos_time_window_limit_exceeded"]);
    h.clock.set(friday + 10 * MINUTE_MS);
    expect((await createPayment(h, { amount: 10_001 })).status).toBe(201);
  });

  it("usage counts initiated and captured payments only: a failed or expired one frees its amount", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { dailyMax: 30_000 } } }) });
    const first = await createPayment(h, { amount: 20_000 });
    await pay(h, first.json.paymentRef, "4000008800000007"); // 3D fails: payment failed
    expect((await paymentRow(h, first.json.paymentCode)).status).toBe("failed");
    const second = await createPayment(h, { amount: 25_000 });
    expect(second.status).toBe(201);
    expect((await createPayment(h, { amount: 10_000 })).status).toBe(422);
    await h.advance(30 * MINUTE_MS); // the second one expires
    expect((await createPayment(h, { amount: 30_000 })).status).toBe(201);
  });

  it("usage is per connection: another connection's payments do not count", async () => {
    h = await harness({
      seed: seedWith({
        connection: { limits: { dailyMax: 30_000 } },
        connections: [{ id: "vpos-2", psp: "psp-1", bank: "sim", active: true }],
        terminals: [{ id: "T-2", partner: "ptn_test", connection: "vpos-2", installments: [1], rates: [{ count: 1, rateBps: 100 }] }],
      }),
    });
    expect((await createPayment(h, { amount: 1_000_000, terminalId: "T-2" })).status).toBe(201);
    expect((await createPayment(h, { amount: 30_000 })).status).toBe(201);
  });

  it("thresholds and usage never appear in the answer", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { dailyMax: 30_000 } } }) });
    const r = await createPayment(h, { amount: 30_001 });
    expect(r.text).not.toContain("30000");
    expect(r.text).not.toContain("30001");
  });
});

describe("interface 4.5 partner scoping (product 16)", () => {
  it("another partner's identical partnerTxCode is unrelated", async () => {
    h = await harness();
    const mine = await createPayment(h, { partnerTxCode: "same" });
    const theirs = await createPayment(h, { partnerTxCode: "same", terminalId: "T-OTHER" }, OTHER_KEY);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.json.paymentCode).not.toBe(mine.json.paymentCode);
  });
});
