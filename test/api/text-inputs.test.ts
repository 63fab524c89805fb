import { afterEach, describe, expect, it } from "vitest";
import { harness, type Harness } from "../support/harness";
import { createBody, paymentCount } from "./payments-flow";
import { createLink, linkCount } from "../unit/payment-links/fixtures";

let h: Harness;
afterEach(async () => h?.close());

// JSON.stringify writes a lone surrogate as a \ud800 escape, so these bodies carry them as an
// attacker's client would; JSON.parse hands them to kasa unpaired.

describe("product 23 / issue 15 item 8: lone surrogates and control characters in API text are 400", () => {
  it("two partnerTxCodes differing only in a lone surrogate are refused, never replayed as one payment", async () => {
    h = await harness();
    const first = await h.post("/v1/payments", createBody({ partnerTxCode: "order-\ud800" }));
    const second = await h.post("/v1/payments", createBody({ partnerTxCode: "order-\udbff" }));
    for (const r of [first, second]) {
      expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
      expect(r.json.error.message).toMatch(/^partnerTxCode: /);
    }
    expect(await paymentCount(h)).toBe(0);
  });

  it.each([
    ["partnerTxCode with a lone low surrogate", { partnerTxCode: "\udc00x" }, "partnerTxCode"],
    ["partnerTxCode with a newline", { partnerTxCode: "a\nb" }, "partnerTxCode"],
    ["partnerTxCode with NUL", { partnerTxCode: "a\u0000b" }, "partnerTxCode"],
    ["terminalId with DEL", { terminalId: "T-1\u007f" }, "terminalId"],
    ["description with an escape sequence", { description: "\u001b[2J cleared" }, "description"],
    ["description with a carriage return", { description: "line\rover" }, "description"],
    ["description with a C1 control", { description: "a\u009bb" }, "description"],
    ["description with a lone surrogate", { description: "a\ud83d" }, "description"],
    ["returnUrl with a tab", { returnUrl: "https://shop.example/\tdone" }, "returnUrl"],
  ])("POST /v1/payments: %s names the field, nothing created", async (_n, over, field) => {
    h = await harness();
    const r = await h.post("/v1/payments", createBody(over));
    expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
    expect(r.json.error.message).toMatch(new RegExp(`^${field}: `));
    expect(await paymentCount(h)).toBe(0);
  });

  it.each([
    [
      "items[1].name with a bell",
      {
        items: [
          { name: "a", amount: 5000 },
          { name: "b\u0007", amount: 10_000 },
        ],
      },
      "items[1].name",
    ],
    ["items[0].note with a newline", { items: [{ name: "a", note: "x\ny", amount: 15_000 }] }, "items[0].note"],
    ["payerName with a lone surrogate", { payerName: "Ay\udfffşe" }, "payerName"],
    ["description with a vertical tab", { description: "a\u000bb" }, "description"],
  ])("POST /v1/payment-links: %s names the field, nothing created", async (_n, over, field) => {
    h = await harness();
    const r = await createLink(h, over);
    expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
    expect(r.json.error.message).toMatch(new RegExp(`^${field.replace(/[[\].]/g, "\\$&")}: `));
    expect(await linkCount(h)).toBe(0);
  });

  it("tab and newline stay allowed in descriptions; a surrogate pair (emoji) anywhere is fine", async () => {
    h = await harness();
    const payment = await h.post("/v1/payments", createBody({ partnerTxCode: "order-😀", description: "Sipariş\t42\nkargo 😀" }));
    expect(payment.status, payment.text).toBe(201);
    const found = await h.get(`/v1/payments?partnerTxCode=${encodeURIComponent("order-😀")}`);
    expect(found.json.paymentCode).toBe(payment.json.paymentCode);
    const link = await createLink(h, { description: "a\tb\nc", payerName: "Ayşe 😀" });
    expect(link.status, link.text).toBe(201);
  });
});

describe("product 23 / issue 15 item 8: a link's card-number check is not bypassed by formatting", () => {
  it.each([
    ["items[0].name", { items: [{ name: "4000\u200b0011\u200b0000\u200b0009", amount: 15_000 }] }],
    ["items[0].note", { items: [{ name: "kart", note: "4000.0011.0000.0009", amount: 15_000 }] }],
    ["payerName", { payerName: "TR33/0006/1005/1978/6457/8413/26" }],
  ])("%s: 400 sensitive_data_not_allowed, nothing created", async (path, over) => {
    h = await harness();
    const r = await createLink(h, over);
    expect([r.status, r.json.error.code, r.json.error.message]).toEqual([
      400,
      "sensitive_data_not_allowed",
      `${path}: must not be a card number or IBAN`,
    ]);
    expect(await linkCount(h)).toBe(0);
  });
});
