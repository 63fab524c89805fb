import { afterEach, describe, expect, it } from "vitest";
import { harness, type Harness } from "../support/harness";
import { OTHER_KEY, TEST_SEED } from "../support/fixtures";
import { ITEM_NAME_MAX_CHARS, ITEM_NOTE_MAX_CHARS, LINK_ITEMS_MAX, PAYER_NAME_MAX_CHARS } from "../../src/limits";
import { createLink, linkCount, newLink } from "../unit/payment-links/fixtures";

let h: Harness;
afterEach(async () => h?.close());

async function expectError(body: Record<string, unknown>, status: number, code: string, message?: string | RegExp) {
  const before = await linkCount(h);
  const r = await createLink(h, body);
  expect(r.status, r.text).toBe(status);
  expect(r.json.error.code).toBe(code);
  if (typeof message === "string") expect(r.json.error.message).toBe(message);
  if (message instanceof RegExp) expect(r.json.error.message).toMatch(message);
  expect(await linkCount(h)).toBe(before);
}

// ptn_test has the allowed-host list ["shop.example"]; ptn_other has none.
describe("interface 4.1.1 redirectUrl (product 3 URL rules)", () => {
  it.each([
    "ftp://shop.example/return",
    "javascript:alert(1)//shop.example",
    "data:text/html,shop.example",
    "//shop.example/return",
    "/return",
    "shop.example/return",
    "https://evil.example/",
    "https://shop.example.evil.example/",
    "https://evilshop.example/",
    "https://evil.example/?next=https://shop.example/",
    "https://evil.example/shop.example",
    "https://shop.example@evil.example/",
    "https://user:pw@shop.example/",
    "https://@shop.example/",
    "https://evil.example\\@shop.example/",
    "https://shop.example\\@evil.example/",
    "https:\\\\evil.example",
    "https:/evil.example",
    "https:///evil.example",
    "https://evil.example#@shop.example",
    "https://evil.example%2f@shop.example",
    "https://shop.example%2eevil.example/",
    "https://sh%6fp.example/",
    " https://shop.example/",
    "https://shop.example /",
    "https://shop.example\t/",
    "https://shop.exa\nmple/",
    "https://shop.example\u0000.evil.example/",
    "https://shop.example\u3002evil.example/",
    "https://shop\u2024example/",
    "https://ѕhop.example/",
    "https://[::1]@evil.example/",
    "https://2130706433/",
    "https://0x7f.0.0.1/",
    "https://shop.example:99999/",
    "https://",
    "",
  ])("%j is 400 validation_error naming redirectUrl", async (redirectUrl) => {
    h = await harness();
    await expectError({ redirectUrl }, 400, "validation_error", /^redirectUrl: /);
  });

  it.each([
    ["https://shop.example/return", "https://shop.example/return"],
    ["http://shop.example/return", "http://shop.example/return"],
    ["https://SHOP.Example/Return?x=1#top", "https://shop.example/Return?x=1#top"],
    ["https://shop.example:8443/r", "https://shop.example:8443/r"],
    ["https://shop.example", "https://shop.example/"],
  ])("%j is accepted and stored as %j (the URL the buyer will be sent to)", async (redirectUrl, stored) => {
    h = await harness();
    expect((await newLink(h, { redirectUrl })).redirectUrl).toBe(stored);
  });

  it("without an allowed-host list only the URL itself is checked", async () => {
    h = await harness();
    const other = { terminalId: "T-OTHER" };
    expect((await createLink(h, { ...other, redirectUrl: "https://anything.example/r" }, { key: OTHER_KEY })).status).toBe(201);
    const r = await createLink(h, { ...other, redirectUrl: "ftp://anything.example/r" }, { key: OTHER_KEY });
    expect(r.json.error.code).toBe("validation_error");
  });

  it("null and absent mean no redirect (the hosted result page)", async () => {
    h = await harness();
    expect((await newLink(h, { redirectUrl: null })).redirectUrl).toBeNull();
  });
});

describe("interface 4.1 / 7.4 reason 4 allowedInstallmentCounts", () => {
  it.each([
    [
      [12, 3, 3, 1],
      [1, 3, 12],
    ],
    [[6], [6]],
    [
      [1, 2, 3, 6, 9, 12],
      [1, 2, 3, 6, 9, 12],
    ],
    [null, null],
    [undefined, null],
  ])("%j is echoed as %j (sorted, de-duplicated; null = no restriction)", async (counts, echoed) => {
    h = await harness();
    expect((await newLink(h, { allowedInstallmentCounts: counts })).allowedInstallmentCounts).toEqual(echoed);
  });

  it.each([
    ["empty", [], "T-1"],
    ["outside the terminal's set", [4], "T-1"],
    ["partly outside", [1, 3, 24], "T-1"],
    ["zero", [0], "T-1"],
    ["negative", [-3], "T-1"],
    ["in T-1's set but not T-NET's", [2], "T-NET"],
  ])("%s is 422 installment_not_allowed", async (_name, counts, terminalId) => {
    h = await harness();
    await expectError({ terminalId, allowedInstallmentCounts: counts }, 422, "installment_not_allowed", /^allowedInstallmentCounts: /);
  });

  it("the effective set is the terminal's set capped by the partner's installmentCap (product 4)", async () => {
    h = await harness({
      seed: { ...TEST_SEED, partners: TEST_SEED.partners!.map((p) => (p.id === "ptn_test" ? { ...p, installmentCap: 6 } : p)) },
    });
    expect((await newLink(h, { allowedInstallmentCounts: [1, 6] })).allowedInstallmentCounts).toEqual([1, 6]);
    await expectError({ allowedInstallmentCounts: [1, 9] }, 422, "installment_not_allowed");
  });

  it.each([[[1.5]], [["3"]], [3], [[null]]])("%j is a shape error (400)", async (counts) => {
    h = await harness();
    await expectError({ allowedInstallmentCounts: counts }, 400, "validation_error", /^allowedInstallmentCounts/);
  });
});

const item = (over: Record<string, unknown> = {}) => ({ name: "Item", amount: 100, ...over });

describe("interface 4.1.2 / 8 items", () => {
  it("1 to 50 entries; order preserved; note null when not sent", async () => {
    h = await harness();
    const fifty = Array.from({ length: LINK_ITEMS_MAX }, (_, i) => item({ name: `n${i}`, amount: i + 1 }));
    const amount = fifty.reduce((s, i) => s + i.amount, 0);
    const link = await newLink(h, { amount, items: fifty });
    expect(link.items).toEqual(fifty.map((i) => ({ ...i, note: null })));
    expect((await newLink(h, { amount: 100, items: [item()] })).items).toEqual([{ name: "Item", note: null, amount: 100 }]);
  });

  it("an empty list is 400 validation_error", async () => {
    h = await harness();
    await expectError({ items: [] }, 400, "validation_error", "items: must not be empty");
  });

  it("51 entries is 400", async () => {
    h = await harness();
    const many = Array.from({ length: LINK_ITEMS_MAX + 1 }, () => item({ amount: 1 }));
    await expectError({ amount: LINK_ITEMS_MAX + 1, items: many }, 400, "validation_error", /^items: /);
  });

  it.each([
    ["name too long", [item({ name: "x".repeat(ITEM_NAME_MAX_CHARS + 1) })], "items[0].name: must be at most 120 characters"],
    ["name missing", [{ amount: 100 }], "items[0].name: is required"],
    ["name empty", [item({ name: "" })], "items[0].name: must not be empty"],
    ["note too long", [item({ note: "x".repeat(ITEM_NOTE_MAX_CHARS + 1) })], "items[0].note: must be at most 200 characters"],
    ["amount 0", [item({ amount: 50 }), item({ amount: 0 })], "items[1].amount: must be >= 1"],
    ["amount negative", [item({ amount: -100 })], "items[0].amount: must be >= 1"],
    ["amount fraction", [item({ amount: 99.5 })], "items[0].amount: must be a safe integer"],
    ["not an object", ["Item"], /^items\[0\]: /],
    ["not an array", "Item", /^items: /],
  ])("%s is 400 naming the field and rule (product 3)", async (_name, items, message) => {
    h = await harness();
    await expectError({ amount: 100, items }, 400, "validation_error", message);
  });

  it("lengths count characters, not UTF-16 units: 120 emoji fit in a name", async () => {
    h = await harness();
    const name = "😀".repeat(ITEM_NAME_MAX_CHARS);
    expect((await newLink(h, { amount: 100, items: [item({ name })] })).items).toEqual([{ name, note: null, amount: 100 }]);
    await expectError({ amount: 100, items: [item({ name: `${name}a` })] }, 400, "validation_error", /^items\[0\]\.name/);
  });

  it.each([
    ["short", [item({ amount: 100 }), item({ amount: 200 })], 301],
    ["over", [item({ amount: 100 }), item({ amount: 202 })], 301],
    ["beyond 2^53 in sum", [item({ amount: Number.MAX_SAFE_INTEGER }), item({ amount: 2 })], Number.MAX_SAFE_INTEGER],
  ])("a sum %s of amount is 422 payment_link_items_amount_mismatch", async (_name, items, amount) => {
    h = await harness();
    await expectError({ amount, items }, 422, "payment_link_items_amount_mismatch", /^items: /);
  });
});

describe("interface 4.1 / 4.1.2 payerName", () => {
  it("120 characters pass raw (the page masks it, the API does not); 121 is 400", async () => {
    h = await harness();
    const name = "Ç".repeat(PAYER_NAME_MAX_CHARS);
    expect((await newLink(h, { payerName: name })).payerName).toBe(name);
    await expectError({ payerName: `${name}x` }, 400, "validation_error", "payerName: must be at most 120 characters");
  });

  it("null means none sent", async () => {
    h = await harness();
    expect((await newLink(h, { payerName: null })).payerName).toBeNull();
  });
});

describe("interface 4.1.2 sensitive data: a whole field that is a card number or IBAN", () => {
  const PAN = "4000001100000009";
  const IBAN = "TR330006100519786457841326";
  it.each([
    ["items[0].name", { items: [item({ name: PAN, amount: 15_000 })] }],
    ["items[0].name", { items: [item({ name: "4000 0011 0000 0009", amount: 15_000 })] }],
    ["items[1].note", { items: [item({ amount: 5000 }), item({ note: "TR33 0006 1005 1978 6457 8413 26", amount: 10_000 })] }],
    ["items[0].note", { items: [item({ note: IBAN, amount: 15_000 })] }],
    ["payerName", { payerName: "4000-0011-0000-0009" }],
    ["payerName", { payerName: "GB82 WEST 1234 5698 7654 32" }],
  ])("%s is 400 sensitive_data_not_allowed naming the field", async (path, body) => {
    h = await harness();
    await expectError(body, 400, "sensitive_data_not_allowed", `${path}: must not be a card number or IBAN`);
  });

  it.each([
    { payerName: `Order ${PAN}` },
    { items: [item({ name: `IBAN ${IBAN} ile`, note: `kart ${PAN}`, amount: 15_000 })] },
    { payerName: "4000001100000001" }, // fails Luhn
    { payerName: "123456789012" }, // 12 digits
    { description: PAN }, // description is not one of 4.1.2's fields
  ])("an embedded or non-matching value is accepted: %j", async (body) => {
    h = await harness();
    expect((await createLink(h, body)).status).toBe(201);
  });
});
