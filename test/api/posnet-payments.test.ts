import { afterEach, describe, expect, it } from "vitest";
import { eventsOf, paymentRow } from "./payments-flow";
import { cardFields as linkCard, createLink, formById, linkJson, pageUrl, paymentsOfLink } from "./link-pages-flow";
import {
  APPROVE,
  AUTH_FAILS,
  buyerOf,
  DECLINE_AT_3D,
  NO_FUNDS,
  posnetHarness,
  posnetPayment,
  payAtBank,
  type PosnetHarness,
} from "./posnet-flow";

// Issue 33: card payments through the Posnet adapter and the built-in Posnet simulator: the card
// goes to the bank server to server (oosRequestData), the browser carries three opaque strings to
// the 3D page, the callback is resolved with the bank's MAC verified, and one oosTranData charges.

let h: PosnetHarness;
afterEach(async () => h?.close());

const attemptOf = async (code: string) => (await h.store.q.attempts.byPayment(code))[0]!;

describe("issue 33: Posnet payments", () => {
  it("an approved card is captured through the three server calls; bankReference is TDSC + XID", async () => {
    h = await posnetHarness();
    const p = await posnetPayment(h, 12_345);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain(`paymentCode=${p.paymentCode}&status=captured`);
    const attempt = await attemptOf(p.paymentCode);
    expect(await paymentRow(h, p.paymentCode)).toMatchObject({ status: "captured", bankReference: `TDSC${attempt.id.slice(4)}` });
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(h.sent).toEqual(["oosRequestData", "oosResolveMerchantData", "oosTranData"]);
  });

  it("the relay page posts the bank's 8 fields, no card data, to the 3D page's origin only", async () => {
    h = await posnetHarness();
    const p = await posnetPayment(h);
    const first = await buyerOf(h).post("http://kasa.test/handoff", {
      paymentRef: p.paymentRef,
      pan: APPROVE,
      expireMonth: "12",
      expireYear: "34",
      cv2: "857",
    });
    const relay = first.trail[0]!;
    expect(relay.headers.get("content-security-policy")).toContain("form-action https://bank.test");
    const form = relay.forms[0]!;
    expect(form.fields.map((f) => f.name)).toEqual([
      "mid",
      "posnetID",
      "posnetData",
      "posnetData2",
      "digest",
      "merchantReturnURL",
      "url",
      "lang",
    ]);
    expect(relay.body).not.toContain(APPROVE);
    // The bank's hex strings may hold any three digits: the CVV is checked as a field value.
    expect(form.fields.filter((f) => f.value === "857" || f.value.includes(APPROVE))).toEqual([]);
    const attempt = await attemptOf(p.paymentCode);
    expect(form.fields.find((f) => f.name === "merchantReturnURL")?.value).toBe(`http://kasa.test/handoff/callback/${attempt.id}`);
    expect(form.buttons.every((b) => b.name === null)).toBe(true);
  });

  it.each([
    ["3D authentication fails (mdStatus 0)", AUTH_FAILS, 0],
    ["the bank declines the charge (0051)", NO_FUNDS, 1],
  ] as const)("%s (card %s): failed, payment.failed, %i oosTranData", async (_name, pan, trans) => {
    h = await posnetHarness();
    const p = await posnetPayment(h);
    const done = await payAtBank(h, p.paymentRef, pan);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(h.trans()).toBe(trans);
  });

  it("oosRequestData refused by the bank: payment_declined before the buyer leaves, the payment stays initiated", async () => {
    h = await posnetHarness();
    const p = await posnetPayment(h);
    const done = await payAtBank(h, p.paymentRef, DECLINE_AT_3D);
    expect(done.page?.status).toBe(422);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    expect((await attemptOf(p.paymentCode)).status).toBe("declined");
    expect(h.sent).toEqual(["oosRequestData"]);
  });

  it.each([
    ["HTTP 500", () => new Response("boom", { status: 500 })],
    ["HTML", () => new Response("<html><body>down</body></html>", { status: 200 })],
    [
      "no answer within timeoutMs",
      (signal?: AbortSignal | null) => new Promise<Response>((_ok, fail) => signal?.addEventListener("abort", () => fail(signal.reason))),
    ],
  ])("oosRequestData answered with %s: that attempt fails cleanly (payment_declined), nothing charged", async (_name, answer) => {
    h = await posnetHarness({
      transport: async (_url, init, send) => ((init.body as string).includes("oosRequestData") ? answer(init.signal) : send()),
    });
    const p = await posnetPayment(h);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.page?.status).toBe(422);
    expect((await attemptOf(p.paymentCode)).status).toBe("declined");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    expect(h.trans()).toBe(0);
  });

  it("installments: the count travels as 03 and the resolve echo must match it", async () => {
    h = await posnetHarness();
    const p = await posnetPayment(h, 30_000, 3);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=captured");
  });
});

describe("issue 33: a payment link paid through the Posnet connection", () => {
  it("the link page's payment is captured and the link completed; one oosTranData", async () => {
    h = await posnetHarness();
    const link = await createLink(h, { terminalId: "T-P3D", amount: 25_000 });
    const buyer = buyerOf(h);
    const page = await buyer.get(pageUrl(link.token));
    const done = await buyer.submit(formById(page.page, "pay-form"), { ...linkCard(APPROVE), installment: "1" });
    expect(done.leftTo ?? done.page?.url).toBeTruthy();
    expect((await linkJson(h, link.id)).status).toBe("completed");
    const [payment] = await paymentsOfLink(h, link.id);
    expect(payment?.status).toBe("captured");
    expect(h.trans()).toBe(1);
  });
});
