import { afterEach, describe, expect, it } from "vitest";
import { eventsOf, paymentRow } from "./payments-flow";
import { cardFields as linkCard, createLink, formById, linkJson, pageUrl, paymentsOfLink } from "./link-pages-flow";
import { buyerOf, callbackOf, estHarness, estPayment, payAtBank, postRaw, resign, type EstHarness } from "./est-flow";

// Product 17 / issue 16: card payments through the EST adapter and the built-in EST simulator,
// both models; the bank's callback checked over its raw bytes, one Auth per attempt.

const APPROVE = "4000001100000009";
const AUTH_FAILS = "4000008800000007";
const NO_FUNDS = "4000009900000004";

let h: EstHarness;
afterEach(async () => h?.close());

const attemptOf = async (code: string) => (await h.store.q.attempts.byPayment(code))[0]!;

describe("product 17: EST payments, model 3d and 3d_pay", () => {
  it.each([
    ["T-E3D", 1],
    ["T-EPAY", 0],
  ] as const)("%s: an approved card is captured (Auth requests sent: %i)", async (terminal, auths) => {
    h = await estHarness();
    const p = await estPayment(h, terminal, 12_345);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain(`paymentCode=${p.paymentCode}&status=captured`);
    expect(await paymentRow(h, p.paymentCode)).toMatchObject({ status: "captured", bankReference: (await attemptOf(p.paymentCode)).id });
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(h.auths()).toBe(auths);
  });

  it("the relay page posts to the gate's origin only (CSP form-action) and the form is signed ver3", async () => {
    h = await estHarness();
    const p = await estPayment(h, "T-E3D");
    const first = await buyerOf(h).post("http://kasa.test/handoff", {
      paymentRef: p.paymentRef,
      pan: APPROVE,
      expireMonth: "12",
      expireYear: "34",
      cv2: "857",
    });
    const relay = first.trail[0]!;
    expect(relay.headers.get("content-security-policy")).toContain("form-action https://bank.test");
    const names = relay.forms[0]!.fields.map((f) => f.name);
    expect(names).toEqual([
      "clientid",
      "storetype",
      "amount",
      "oid",
      "okUrl",
      "failUrl",
      "rnd",
      "lang",
      "currency",
      "taksit",
      "TranType",
      "hashAlgorithm",
      "pan",
      "Ecom_Payment_Card_ExpDate_Month",
      "Ecom_Payment_Card_ExpDate_Year",
      "cv2",
      "hash",
    ]);
    expect(relay.forms[0]!.buttons.every((b) => b.name === null)).toBe(true);
    // Product 17: the attempt's id is the bank's oid; okUrl = failUrl = that attempt's callback URL.
    const field = (name: string) => relay.forms[0]!.fields.find((f) => f.name === name)?.value;
    const attempt = (await h.store.q.attempts.byPayment(p.paymentCode))[0]!;
    expect(field("oid")).toBe(attempt.id);
    expect(field("okUrl")).toBe(`http://kasa.test/handoff/callback/${attempt.id}`);
    expect(field("failUrl")).toBe(field("okUrl"));
  });

  it.each([
    ["T-E3D", AUTH_FAILS, 0],
    ["T-EPAY", AUTH_FAILS, 0],
    ["T-E3D", NO_FUNDS, 1],
    ["T-EPAY", NO_FUNDS, 0],
  ] as const)("%s with %s: failed, payment.failed, %i Auth", async (terminal, pan, auths) => {
    h = await estHarness();
    const p = await estPayment(h, terminal);
    const done = await payAtBank(h, p.paymentRef, pan);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(h.auths()).toBe(auths);
  });
});

describe("product 17: a callback that is not the bank's own changes nothing", () => {
  const flip = (body: string, field: string) =>
    body.replace(new RegExp(`(${field}=)([^&])`), (_m, k: string, c: string) => `${k}${c === "A" ? "B" : "A"}`);

  it.each([
    ["a forged HASH", (b: string) => flip(b, "HASH")],
    ["a changed mdStatus", (b: string) => b.replace("mdStatus=1", "mdStatus=2")],
    ["a truncated body", (b: string) => b.slice(0, Math.floor(b.length / 2))],
    ["a field posted twice", (b: string) => `${b}&oid=${/oid=([^&]*)/.exec(b)?.[1]}`],
    ["no HASH at all", (b: string) => b.replace(/&?HASH=[^&]*/, "")],
    ["a wrong amount echoed (signed again)", (b: string) => resign(b, { amount: "1.00" })],
    ["another clientid echoed (signed again)", (b: string) => resign(b, { clientid: "190100000" })],
  ])("%s: 400 page, payment initiated, no Auth", async (_name, tamper) => {
    h = await estHarness();
    const p = await estPayment(h, "T-E3D");
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const res = await postRaw(h, cb.url, tamper(cb.body));
    expect(res.status).toBe(400);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    expect((await attemptOf(p.paymentCode)).status).toBe("acs");
    expect(await eventsOf(h, p.paymentCode)).toEqual([]);
    expect(h.auths()).toBe(0);
    expect(h.log.lines.some((l) => l.includes("bank callback refused"))).toBe(true);
  });

  it("a re-ordered genuine callback is the same callback (the hash has its own order): captured once", async () => {
    h = await estHarness();
    const p = await estPayment(h, "T-E3D");
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const reordered = cb.body.split("&").reverse().join("&");
    expect((await postRaw(h, cb.url, reordered)).status).toBe(303);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(h.auths()).toBe(1);
  });

  it("a replayed callback after the capture: 400, still one Auth, one payment.captured", async () => {
    h = await estHarness();
    const p = await estPayment(h, "T-E3D");
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    expect((await postRaw(h, cb.url, cb.body)).status).toBe(303);
    expect((await postRaw(h, cb.url, cb.body)).status).toBe(400);
    expect(h.auths()).toBe(1);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });

  it("a genuine callback posted to another attempt's URL is refused (the oid is signed)", async () => {
    h = await estHarness();
    const a = await estPayment(h, "T-E3D");
    const b = await estPayment(h, "T-E3D");
    const cbA = await callbackOf(h, a.paymentRef, APPROVE);
    const cbB = await callbackOf(h, b.paymentRef, APPROVE);
    expect((await postRaw(h, cbB.url, cbA.body)).status).toBe(400);
    expect((await paymentRow(h, b.paymentCode)).status).toBe("initiated");
    expect((await paymentRow(h, a.paymentCode)).status).toBe("initiated");
    expect(h.auths()).toBe(0);
  });

  it("concurrent callbacks for one attempt send exactly one Auth", async () => {
    h = await estHarness();
    const p = await estPayment(h, "T-E3D");
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const answers = await Promise.all(Array.from({ length: 8 }, () => postRaw(h, cb.url, cb.body)));
    expect(answers.map((r) => r.status).sort()).toEqual([303, 400, 400, 400, 400, 400, 400, 400]);
    expect(h.auths()).toBe(1);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });
});

describe("product 17: a payment link paid through the EST connection", () => {
  it.each([["T-E3D"], ["T-EPAY"]])("%s: the link page's payment is captured and the link completed", async (terminalId) => {
    h = await estHarness();
    const link = await createLink(h, { terminalId, amount: 25_000 });
    const buyer = buyerOf(h);
    const page = await buyer.get(pageUrl(link.token));
    const done = await buyer.submit(formById(page.page, "pay-form"), { ...linkCard(APPROVE), installment: "1" });
    expect(done.leftTo ?? done.page?.url).toBeTruthy();
    expect((await linkJson(h, link.id)).status).toBe("completed");
    const [payment] = await paymentsOfLink(h, link.id);
    expect(payment?.status).toBe("captured");
    expect(h.auths()).toBe(terminalId === "T-E3D" ? 1 : 0);
  });
});
