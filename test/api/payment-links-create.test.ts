import { afterEach, describe, expect, it } from "vitest";
import { harness, T0, type Harness } from "../support/harness";
import { OTHER_KEY, TEST_SEED } from "../support/fixtures";
import { DESCRIPTION_MAX_CHARS, LINK_VALIDITY_MS } from "../../src/limits";
import { createLink, linkCount, newLink } from "../unit/payment-links/fixtures";

let h: Harness;
afterEach(async () => h?.close());

const iso = (ms: number) => new Date(ms).toISOString();
const FIELDS_2_1 = [
  "id",
  "token",
  "url",
  "partnerReference",
  "status",
  "amount",
  "customerCommissionShareBps",
  "description",
  "redirectUrl",
  "firstOpenedAt",
  "lastOpenedAt",
  "expiresAt",
  "createdAt",
  "updatedAt",
  "allowedInstallmentCounts",
  "items",
  "payerName",
];

async function expectError(body: Record<string, unknown>, status: number, code: string, messageStart?: string) {
  const r = await createLink(h, body);
  expect(r.status, r.text).toBe(status);
  expect(r.json.error.code).toBe(code);
  if (messageStart !== undefined) expect(r.json.error.message.startsWith(messageStart), r.json.error.message).toBe(true);
  return r;
}

describe("interface 4.1 / 2.1 create payment link: the response", () => {
  it("is 201 with every 2.1 field, nulls explicit, status pending, expiresAt = createdAt + 7 days (3.1, 8)", async () => {
    h = await harness();
    const r = await createLink(h);
    expect(r.status).toBe(201);
    expect(Object.keys(r.json)).toEqual(FIELDS_2_1);
    expect(r.json).toEqual({
      id: expect.stringMatching(/^pl_[0-9a-z]{20}$/),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      url: `http://kasa.test/l/${r.json.token}`,
      partnerReference: 1,
      status: "pending",
      amount: 15_000,
      customerCommissionShareBps: 0,
      description: null,
      redirectUrl: null,
      firstOpenedAt: null,
      lastOpenedAt: null,
      expiresAt: iso(T0 + LINK_VALIDITY_MS),
      createdAt: iso(T0),
      updatedAt: iso(T0),
      allowedInstallmentCounts: null,
      items: null,
      payerName: null,
    });
  });

  it("echoes every optional field; payerName raw, items in the order sent (4.1.2)", async () => {
    h = await harness();
    const items = [
      { name: "Zeta", note: "last letter", amount: 100 },
      { name: "Alpha", amount: 400 },
      { name: "Mu", note: null, amount: 500 },
    ];
    const link = await newLink(h, {
      amount: 1000,
      customerCommissionShareBps: 2500,
      description: "Order #42",
      redirectUrl: "https://shop.example/return?o=42",
      allowedInstallmentCounts: [6, 1, 3],
      items,
      payerName: "Ayşe Yılmaz",
    });
    expect(link).toMatchObject({
      amount: 1000,
      customerCommissionShareBps: 2500,
      description: "Order #42",
      redirectUrl: "https://shop.example/return?o=42",
      allowedInstallmentCounts: [1, 3, 6],
      payerName: "Ayşe Yılmaz",
      items: [
        { name: "Zeta", note: "last letter", amount: 100 },
        { name: "Alpha", note: null, amount: 400 },
        { name: "Mu", note: null, amount: 500 },
      ],
    });
    expect((await h.get(`/v1/payment-links/${link.id}`)).json).toEqual(link);
  });

  it("partnerReference is an increasing sequence per account (2.1)", async () => {
    h = await harness();
    expect((await newLink(h)).partnerReference).toBe(1);
    expect((await newLink(h)).partnerReference).toBe(2);
    expect((await newLink(h, { terminalId: "T-OTHER" }, { key: OTHER_KEY })).partnerReference).toBe(1);
    expect((await newLink(h)).partnerReference).toBe(3);
  });

  it("ids, tokens and urls are distinct per link", async () => {
    h = await harness();
    const [a, b] = [await newLink(h), await newLink(h)];
    expect(a.id).not.toBe(b.id);
    expect(a.token).not.toBe(b.token);
    expect(a.token).not.toBe(a.id);
  });
});

describe("interface 4.1 amount (product 2, 16: safe integer >= 1)", () => {
  it.each([
    ["zero", 0],
    ["negative", -1],
    ["fraction", 1.5],
    ["string", "100"],
    ["null", null],
    ["above MAX_SAFE_INTEGER", 2 ** 53],
  ])("%s is 400 validation_error naming amount", async (_name, amount) => {
    h = await harness();
    await expectError({ amount }, 400, "validation_error", "amount:");
    expect(await linkCount(h)).toBe(0);
  });

  it("missing is 400 amount: is required", async () => {
    h = await harness();
    const r = await h.post("/v1/payment-links", { terminalId: "T-1" });
    expect(r.json.error).toMatchObject({ code: "validation_error", message: "amount: is required" });
  });

  it.each([1, Number.MAX_SAFE_INTEGER])("%d is accepted", async (amount) => {
    h = await harness();
    expect((await newLink(h, { amount })).amount).toBe(amount);
  });
});

describe("interface 4.1 terminalId: must belong to the caller and be active", () => {
  it.each([
    ["another partner's terminal", "T-OTHER"],
    ["an inactive terminal", "T-OFF"],
    ["an unknown terminal", "T-NOPE"],
  ])("%s is 403 terminal_not_allowed", async (_name, terminalId) => {
    h = await harness();
    await expectError({ terminalId }, 403, "terminal_not_allowed");
    expect(await linkCount(h)).toBe(0);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["a number", 1],
  ])("%s is 400", async (_name, terminalId) => {
    h = await harness();
    await expectError({ terminalId }, 400, "validation_error", "terminalId:");
  });

  it("a net terminal of the caller is fine", async () => {
    h = await harness();
    expect((await createLink(h, { terminalId: "T-NET" })).status).toBe(201);
  });
});

describe("interface 4.1 / 8 customerCommissionShareBps: integer 0-10000, default 0", () => {
  it.each([-1, 10_001, 1.5, "100"])("%s is 400", async (share) => {
    h = await harness();
    await expectError({ customerCommissionShareBps: share }, 400, "validation_error", "customerCommissionShareBps:");
  });

  it.each([
    [0, 0],
    [10_000, 10_000],
    [null, 0],
    [undefined, 0],
  ])("%s is stored as %d", async (share, stored) => {
    h = await harness();
    expect((await newLink(h, { customerCommissionShareBps: share })).customerCommissionShareBps).toBe(stored);
  });
});

describe("interface 4.1 description: string or null, bounded (limits.ts)", () => {
  it("the maximum length passes, one more is 400", async () => {
    h = await harness();
    expect((await createLink(h, { description: "d".repeat(DESCRIPTION_MAX_CHARS) })).status).toBe(201);
    await expectError({ description: "d".repeat(DESCRIPTION_MAX_CHARS + 1) }, 400, "validation_error", "description:");
    await expectError({ description: 5 }, 400, "validation_error", "description:");
  });
});

describe("product 3: unknown fields and bodies", () => {
  it("an unknown field is 400 naming the field, and nothing is written", async () => {
    h = await harness();
    const r = await expectError({ currency: "TRY" }, 400, "validation_error");
    expect(r.json.error.message).toBe("currency: unknown field");
    expect(await linkCount(h)).toBe(0);
  });

  it("an unknown field inside an item is 400 naming its path", async () => {
    h = await harness();
    const r = await expectError({ amount: 100, items: [{ name: "a", amount: 100, sku: "x" }] }, 400, "validation_error");
    expect(r.json.error.message).toBe("items[0].sku: unknown field");
  });

  it.each([
    ["not JSON", "{", "application/json"],
    ["not an object", "[1]", "application/json"],
    ["a form", "amount=1", "application/x-www-form-urlencoded"],
  ])("%s is 400", async (_name, body, type) => {
    h = await harness();
    const r = await h.post("/v1/payment-links", body, { headers: { "content-type": type } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("validation_error");
  });
});

describe("product 10: a partner not accepting payments gets no new links", () => {
  it.each([
    ["suspended", { ...TEST_SEED, partners: TEST_SEED.partners!.map((p) => ({ ...p, status: "suspended" as const })) }],
    ["closed", { ...TEST_SEED, partners: TEST_SEED.partners!.map((p) => ({ ...p, status: "closed" as const })) }],
    ["on admin hold", { ...TEST_SEED, holds: [{ partner: "ptn_test", reason: "admin_hold" as const }] }],
  ])("%s: 403 partner_not_active, nothing written", async (_name, seed) => {
    h = await harness({ seed });
    await expectError({}, 403, "partner_not_active");
    expect(await linkCount(h)).toBe(0);
  });
});

describe("interface 4.1 create: precedence of checks (service.ts createLink)", () => {
  it("walks 400 shape -> 400 redirectUrl -> 400 sensitive -> 403 terminal -> 403 partner -> 422 installments -> 422 items", async () => {
    h = await harness({ seed: { ...TEST_SEED, holds: [{ partner: "ptn_test", reason: "admin_hold" }] } });
    const body: Record<string, unknown> = {
      amount: 1000,
      terminalId: "T-OTHER",
      redirectUrl: "https://evil.example/",
      payerName: "4000 0011 0000 0009",
      allowedInstallmentCounts: [4],
      items: [{ name: "a", amount: 999 }],
      extra: true,
    };
    const steps: Array<[string, number, string, () => unknown]> = [
      ["shape", 400, "validation_error", () => delete body.extra],
      ["redirectUrl", 400, "validation_error", () => (body.redirectUrl = "https://shop.example/")],
      ["sensitive data", 400, "sensitive_data_not_allowed", () => (body.payerName = "Ada")],
      ["terminal", 403, "terminal_not_allowed", () => (body.terminalId = "T-1")],
      ["partner", 403, "partner_not_active", () => h.store.write(async (tx) => await tx.acceptance.clearHold("ptn_test", "admin_hold"))],
      ["installments", 422, "installment_not_allowed", () => (body.allowedInstallmentCounts = [3])],
      ["items sum", 422, "payment_link_items_amount_mismatch", () => (body.items = [{ name: "a", amount: 1000 }])],
    ];
    for (const [step, status, code, fix] of steps) {
      const r = await h.post("/v1/payment-links", body);
      expect([step, r.status, r.json.error?.code]).toEqual([step, status, code]);
      await fix();
    }
    expect(await linkCount(h)).toBe(0);
    const r = await h.post("/v1/payment-links", body);
    expect(r.status).toBe(201);
    // No refused attempt consumed a partnerReference.
    expect(r.json.partnerReference).toBe(1);
  });
});
