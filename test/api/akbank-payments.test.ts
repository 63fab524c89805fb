import { afterEach, describe, expect, it } from "vitest";
import { eventsOf, paymentRow } from "./payments-flow";
import { akbankHarness, akbankPayment, buyerOf, callbackOf, payAtBank, postRaw, resign, type AkbankHarness } from "./akbank-flow";

// Issue 34: card payments through the AkbankPos adapter and its built-in simulator, both models;
// the callback checked over the fields hashParams signs, one sale (1000) per attempt.

const APPROVE = "4000001100000009";
const AUTH_FAILS = "4000008800000007";
const NO_FUNDS = "4000009900000004";

let h: AkbankHarness;
afterEach(async () => h?.close());

const attemptOf = async (code: string) => (await h.store.q.attempts.byPayment(code))[0]!;

describe("issue 34: AkbankPos payments, model 3d and 3d_pay", () => {
  it.each([
    ["T-A3D", 1],
    ["T-APAY", 0],
  ] as const)("%s: an approved card is captured (sales sent: %i)", async (terminal, sales) => {
    h = await akbankHarness();
    const p = await akbankPayment(h, terminal, 12_345);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain(`paymentCode=${p.paymentCode}&status=captured`);
    expect(await paymentRow(h, p.paymentCode)).toMatchObject({ status: "captured", bankReference: (await attemptOf(p.paymentCode)).id });
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(h.sales()).toBe(sales);
  });

  it("the relay page posts to the gate's origin only, the attempt id is the orderId, a single charge is installCount 1", async () => {
    h = await akbankHarness();
    const p = await akbankPayment(h, "T-A3D");
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
    const field = (name: string) => form.fields.find((f) => f.name === name)?.value;
    const attempt = await attemptOf(p.paymentCode);
    expect(field("paymentModel")).toBe("3D");
    expect(field("orderId")).toBe(attempt.id);
    expect(field("installCount")).toBe("1");
    expect(field("amount")).toBe("100.00");
    expect(field("okUrl")).toBe(`http://kasa.test/handoff/callback/${attempt.id}`);
    expect(field("failUrl")).toBe(field("okUrl"));
    expect(field("randomNumber")).toMatch(/^[0-9A-F]{128}$/);
    expect(field("requestDateTime")).toBe("2026-11-20T12:00:00.000");
    expect(form.buttons.every((b) => b.name === null)).toBe(true);
  });

  it.each([
    ["T-A3D", AUTH_FAILS, 0],
    ["T-APAY", AUTH_FAILS, 0],
    ["T-A3D", NO_FUNDS, 1],
    ["T-APAY", NO_FUNDS, 0],
  ] as const)("%s with %s: failed, payment.failed, %i sales", async (terminal, pan, sales) => {
    h = await akbankHarness();
    const p = await akbankPayment(h, terminal);
    const done = await payAtBank(h, p.paymentRef, pan);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(h.sales()).toBe(sales);
  });
});

describe("issue 34: a callback that is not the bank's own changes nothing", () => {
  const flip = (body: string, field: string) =>
    body.replace(new RegExp(`(${field}=)([^&])`), (_m, k: string, c: string) => `${k}${c === "A" ? "B" : "A"}`);

  it.each([
    ["a forged hash", (b: string) => flip(b, "hash")],
    ["an altered amount", (b: string) => b.replace(/amount=[^&]*/, "amount=1.00")],
    ["an altered order id", (b: string) => b.replace(/orderId=att-/, "orderId=att-X")],
    ["a truncated body", (b: string) => b.slice(0, Math.floor(b.length / 2))],
    ["a field posted twice", (b: string) => `${b}&orderId=${/orderId=([^&]*)/.exec(b)?.[1]}`],
    ["no hash at all", (b: string) => b.replace(/&?hash=[^&]*/, "")],
    ["hashParams shortened to leave the secure values unsigned", (b: string) => resign(b, { hashParams: "responseCode+orderId" })],
    ["a wrong amount (signed again)", (b: string) => resign(b, { amount: "1.00" })],
    ["a wrong currency (signed again)", (b: string) => resign(b, { currencyCode: "840" })],
    ["a wrong installment count (signed again)", (b: string) => resign(b, { installCount: "3" })],
    ["another terminal (signed again)", (b: string) => resign(b, { terminalSafeId: "2023090417500284633D137A249DBBEB" })],
  ])("%s: 400 page, payment initiated, no sale", async (_name, tamper) => {
    h = await akbankHarness();
    const p = await akbankPayment(h, "T-A3D");
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const res = await postRaw(h, cb.url, tamper(cb.body));
    expect(res.status).toBe(400);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    expect((await attemptOf(p.paymentCode)).status).toBe("acs");
    expect(await eventsOf(h, p.paymentCode)).toEqual([]);
    expect(h.sales()).toBe(0);
    expect(h.log.lines.some((l) => l.includes("bank callback refused"))).toBe(true);
  });

  it("an unsigned mdStatus means nothing: a failed 3D step stays failed whatever it says", async () => {
    h = await akbankHarness();
    const p = await akbankPayment(h, "T-A3D");
    const cb = await callbackOf(h, p.paymentRef, AUTH_FAILS);
    expect((await postRaw(h, cb.url, `${cb.body}&mdStatus=1`)).status).toBe(303);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(h.sales()).toBe(0);
  });

  it("a callback for another attempt is refused; the genuine one, replayed and raced, gives one sale", async () => {
    h = await akbankHarness();
    const a = await akbankPayment(h, "T-A3D");
    const b = await akbankPayment(h, "T-A3D");
    const cbA = await callbackOf(h, a.paymentRef, APPROVE);
    const cbB = await callbackOf(h, b.paymentRef, APPROVE);
    expect((await postRaw(h, cbB.url, cbA.body)).status).toBe(400);
    const answers = await Promise.all([postRaw(h, cbA.url, cbA.body), postRaw(h, cbA.url, cbA.body), postRaw(h, cbA.url, cbA.body)]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 400, 400]);
    expect((await postRaw(h, cbA.url, cbA.body)).status).toBe(400);
    expect((await paymentRow(h, a.paymentCode)).status).toBe("captured");
    expect((await paymentRow(h, b.paymentCode)).status).toBe("initiated");
    expect(h.sales()).toBe(1);
    expect(await eventsOf(h, a.paymentCode)).toEqual(["payment.captured"]);
  });
});
