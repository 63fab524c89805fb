import { afterEach, describe, expect, it } from "vitest";
import { orderIdOf } from "../../src/bank/garanti/order-id";
import { cardFields as linkCard, createLink, formById, linkJson, pageUrl, paymentsOfLink } from "./link-pages-flow";
import { eventsOf, paymentRow } from "./payments-flow";
import { buyerOf, callbackOf, type GarantiHarness, garantiHarness, garantiPayment, payAtBank, postRaw, resign } from "./garanti-flow";

// Issue 31: card payments through the Garanti GVP adapter and the built-in Garanti
// simulator, both models; the callback's SHA-512 hash checked over the raw bytes with the bank's
// own hashparams list, the echoes compared with the attempt, one provision per attempt.

const APPROVE = "4000001100000009";
const AUTH_FAILS = "4000008800000007";
const NO_FUNDS = "4000009900000004";

let h: GarantiHarness;
afterEach(async () => h?.close());

const attemptOf = async (code: string) => (await h.store.q.attempts.byPayment(code))[0]!;

describe("issue 31: Garanti payments, model 3d and 3d_pay", () => {
  it.each([
    ["T-G3D", 1],
    ["T-GPAY", 0],
  ] as const)("%s: an approved card is captured (sales sent: %i)", async (terminal, sales) => {
    h = await garantiHarness();
    const p = await garantiPayment(h, terminal, 12_345);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain(`paymentCode=${p.paymentCode}&status=captured`);
    const row = await paymentRow(h, p.paymentCode);
    expect(row.status).toBe("captured");
    expect(row.bankReference).toMatch(new RegExp(`^${orderIdOf((await attemptOf(p.paymentCode)).id)}:\\d{12}$`));
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(h.sales()).toBe(sales);
  });

  it("the relay page posts to the gate's origin only, with the bank's twenty fields and the attempt's order id", async () => {
    h = await garantiHarness();
    const p = await garantiPayment(h, "T-G3D");
    const first = await buyerOf(h).post("http://kasa.test/handoff", {
      paymentRef: p.paymentRef,
      pan: APPROVE,
      expireMonth: "12",
      expireYear: "34",
      cv2: "857",
    });
    const relay = first.trail[0]!;
    expect(relay.headers.get("content-security-policy")).toContain("form-action https://bank.test");
    expect(relay.forms[0]!.fields.map((f) => f.name)).toEqual([
      "secure3dsecuritylevel",
      "mode",
      "apiversion",
      "terminalprovuserid",
      "terminaluserid",
      "terminalmerchantid",
      "terminalid",
      "txntype",
      "txnamount",
      "txncurrencycode",
      "txninstallmentcount",
      "orderid",
      "successurl",
      "errorurl",
      "customeripaddress",
      "cardnumber",
      "cardexpiredatemonth",
      "cardexpiredateyear",
      "cardcvv2",
      "secure3dhash",
    ]);
    expect(relay.forms[0]!.buttons.every((b) => b.name === null)).toBe(true);
    const field = (name: string) => relay.forms[0]!.fields.find((f) => f.name === name)?.value;
    const attempt = await attemptOf(p.paymentCode);
    expect(field("orderid")).toBe(attempt.id.replace("-", ""));
    expect(field("orderid")).toMatch(/^[A-Za-z0-9]{1,36}$/);
    expect(field("txnamount")).toBe("10000");
    expect(field("successurl")).toBe(`http://kasa.test/handoff/callback/${attempt.id}`);
    expect(field("errorurl")).toBe(field("successurl"));
    expect(field("apiversion")).toBe("512");
  });

  it.each([
    ["T-G3D", AUTH_FAILS, 0],
    ["T-GPAY", AUTH_FAILS, 0],
    ["T-G3D", NO_FUNDS, 1],
    ["T-GPAY", NO_FUNDS, 0],
  ] as const)("%s with %s: failed, payment.failed, %i sales", async (terminal, pan, sales) => {
    h = await garantiHarness();
    const p = await garantiPayment(h, terminal);
    const done = await payAtBank(h, p.paymentRef, pan);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(h.sales()).toBe(sales);
  });
});

describe("issue 31: a callback that is not the bank's own changes nothing", () => {
  const flipHash = (b: string) => b.replace(/(&hash=)(.)/, (_m, k: string, c: string) => `${k}${c === "A" ? "B" : "A"}`);
  const replaceField = (b: string, name: string, value: string) => b.replace(new RegExp(`(^|&)${name}=[^&]*`), `$1${name}=${value}`);

  it.each([
    ["a forged hash", flipHash],
    ["a changed mdstatus", (b: string) => replaceField(b, "mdstatus", "2")],
    ["a truncated body", (b: string) => b.slice(0, Math.floor(b.length / 2))],
    ["a field posted twice", (b: string) => `${b}&mdstatus=1`],
    ["no hash at all", (b: string) => b.replace(/&hash=[^&]*/, "")],
    [
      "hashparams without mdstatus",
      (b: string) => replaceField(b, "hashparams", "clientid%3Aoid%3Aauthcode%3Aprocreturncode%3Aresponse%3Acavv%3Aeci%3Amd%3Arnd%3A"),
    ],
    ["an altered amount echo (unsigned)", (b: string) => replaceField(b, "txnamount", "100")],
    ["an altered currency echo (unsigned)", (b: string) => replaceField(b, "txncurrencycode", "840")],
    ["an altered installment echo (unsigned)", (b: string) => replaceField(b, "txninstallmentcount", "3")],
    ["an altered order echo (unsigned)", (b: string) => replaceField(b, "orderid", "att0000")],
    ["another terminal signed (re-signed)", (b: string) => resign(b, { clientid: "30690000" })],
    ["another order signed (re-signed)", (b: string) => resign(b, { oid: "att0000" })],
  ])("%s: 400 page, payment initiated, no sales", async (_name, tamper) => {
    h = await garantiHarness();
    const p = await garantiPayment(h, "T-G3D");
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const res = await postRaw(h, cb.url, tamper(cb.body));
    expect(res.status).toBe(400);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    expect((await attemptOf(p.paymentCode)).status).toBe("acs");
    expect(await eventsOf(h, p.paymentCode)).toEqual([]);
    expect(h.sales()).toBe(0);
    expect(h.log.lines.some((l) => l.includes("bank callback refused"))).toBe(true);
  });

  it("a re-ordered genuine callback is the same callback: captured once", async () => {
    h = await garantiHarness();
    const p = await garantiPayment(h, "T-G3D");
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    expect((await postRaw(h, cb.url, cb.body.split("&").reverse().join("&"))).status).toBe(303);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(h.sales()).toBe(1);
  });

  it("a replayed callback after the capture: 400, still one sales, one payment.captured", async () => {
    h = await garantiHarness();
    const p = await garantiPayment(h, "T-G3D");
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    expect((await postRaw(h, cb.url, cb.body)).status).toBe(303);
    expect((await postRaw(h, cb.url, cb.body)).status).toBe(400);
    expect(h.sales()).toBe(1);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });

  it("a genuine callback posted to another attempt's URL is refused (the oid is signed)", async () => {
    h = await garantiHarness();
    const a = await garantiPayment(h, "T-G3D");
    const b = await garantiPayment(h, "T-G3D");
    const cbA = await callbackOf(h, a.paymentRef, APPROVE);
    const cbB = await callbackOf(h, b.paymentRef, APPROVE);
    expect((await postRaw(h, cbB.url, cbA.body)).status).toBe(400);
    expect((await paymentRow(h, b.paymentCode)).status).toBe("initiated");
    expect((await paymentRow(h, a.paymentCode)).status).toBe("initiated");
    expect(h.sales()).toBe(0);
  });

  it("concurrent callbacks for one attempt send exactly one sales", async () => {
    h = await garantiHarness();
    const p = await garantiPayment(h, "T-G3D");
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const answers = await Promise.all(Array.from({ length: 8 }, () => postRaw(h, cb.url, cb.body)));
    expect(answers.map((r) => r.status).sort()).toEqual([303, 400, 400, 400, 400, 400, 400, 400]);
    expect(h.sales()).toBe(1);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });
});

describe("issue 31: a payment link paid through the Garanti connection", () => {
  it.each([["T-G3D"], ["T-GPAY"]])("%s: the link page's payment is captured and the link completed", async (terminalId) => {
    h = await garantiHarness();
    const link = await createLink(h, { terminalId, amount: 25_000 });
    const buyer = buyerOf(h);
    const page = await buyer.get(pageUrl(link.token));
    await buyer.submit(formById(page.page, "pay-form"), { ...linkCard(APPROVE), installment: "1" });
    expect((await linkJson(h, link.id)).status).toBe("completed");
    const [payment] = await paymentsOfLink(h, link.id);
    expect(payment?.status).toBe("captured");
    expect(h.sales()).toBe(terminalId === "T-G3D" ? 1 : 0);
  });
});

describe("issue 31: the sandbox's simulate drives the Garanti gate", () => {
  // The sandbox buyer follows forms on kasa's own origin only, where the sandbox serves the
  // simulator: a loopback base URL, as `kasa sandbox` has.
  const SANDBOX_BASE = "http://127.0.0.1:4001";
  it.each([
    [APPROVE, "captured", 1],
    [AUTH_FAILS, "failed", 0],
    [NO_FUNDS, "failed", 1],
  ] as const)("%s on T-G3D: %s, %i sales", async (pan, outcome, sales) => {
    h = await garantiHarness({ sandbox: SANDBOX_BASE });
    const p = await garantiPayment(h, "T-G3D");
    const r = await h.post(`/sandbox/payments/${p.paymentCode}/simulate`, { card: pan });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ paymentCode: p.paymentCode, outcome, status: outcome });
    expect(h.sales()).toBe(sales);
  });
});
