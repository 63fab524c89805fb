import { afterEach, describe, expect, it } from "vitest";
import { heldCards } from "../../src/bank/payflex/callback";
import { eventsOf, paymentRow } from "./payments-flow";
import {
  BANK,
  buyerOf,
  callbackOf,
  formBody,
  payAtBank,
  payflexHarness,
  payflexPayment,
  postRaw,
  toAcs,
  type PayflexHarness,
} from "./payflex-flow";

// Issue 35: the MPI's callback carries no signature. It is accepted only for an attempt whose
// enrollment kasa made and the MPI answered Y, once, with every echo (id, merchant, amount,
// currency, installment count, the card's first 6 / last 4) equal to the attempt's; anything else
// is a 400 that changes nothing, and the genuine callback still completes the payment afterwards.
// Even an accepted one only lets kasa ask: the VPOS answer to kasa's own Sale decides.

const APPROVE = "4000001100000009";
const NOT_ENROLLED = "5400007700000003";

let h: PayflexHarness;
afterEach(async () => h?.close());

const change = (fields: Array<[string, string]>, name: string, value: string) =>
  fields.map(([n, v]) => [n, n === name ? value : v] as [string, string]);

/** Nothing changed: the payment initiated, its attempt at the ACS, no webhook, no Sale. */
async function unchanged(code: string): Promise<void> {
  expect((await paymentRow(h, code)).status).toBe("initiated");
  expect((await h.store.q.attempts.byPayment(code))[0]!.status).toBe("acs");
  expect(await eventsOf(h, code)).toEqual([]);
  expect(h.sales()).toBe(0);
  expect(heldCards()).toBe(0);
  expect(h.log.lines.some((l) => /\d{13,19}/.test(l.replace(/"(ms|traceId)":("[^"]*"|\d+)/g, "")))).toBe(false);
}

/** The genuine callback, posted after the refused ones: captured with one Sale. */
async function genuineStillWorks(code: string, cb: { url: string; fields: Array<[string, string]> }): Promise<void> {
  const res = await postRaw(h, cb.url, formBody(cb.fields));
  expect(res.status).toBe(303);
  expect((await paymentRow(h, code)).status).toBe("captured");
  expect(h.sales()).toBe(1);
}

describe("issue 35: an altered PayFlex callback is refused and changes nothing", () => {
  it.each([
    ["amount", "PurchAmount", "100"],
    ["order (VerifyEnrollmentRequestId)", "VerifyEnrollmentRequestId", "att-XXXXXXXXXXXXXXXXXXXX"],
    ["currency", "PurchCurrency", "840"],
    ["installment count", "InstallmentCount", "3"],
    ["merchant", "MerchantId", "000000000111111"],
    ["card (another last 4)", "Pan", "4000001100000017"],
    ["card (another first 6)", "Pan", "4111111100000009"],
    ["card (not a number)", "Pan", "400000110000000x"],
  ])("%s", async (_name, field, value) => {
    h = await payflexHarness();
    const p = await payflexPayment(h, 10_000);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const res = await postRaw(h, cb.url, formBody(change(cb.fields, field, value)));
    expect(res.status).toBe(400);
    await unchanged(p.paymentCode);
    await genuineStillWorks(p.paymentCode, cb);
  });

  it.each([
    ["a field posted twice", (f: Array<[string, string]>) => formBody([...f, ["Status", "Y"]])],
    ["a field posted twice (PurchAmount)", (f: Array<[string, string]>) => formBody([["PurchAmount", "1"], ...f])],
    ["truncated in the middle", (f: Array<[string, string]>) => formBody(f).slice(0, 60)],
    ["without its card", (f: Array<[string, string]>) => formBody(f.filter(([n]) => n !== "Pan"))],
    ["empty", () => ""],
    ["not a form (bad percent escape)", (f: Array<[string, string]>) => `${formBody(f)}&x=%zz`],
  ])("%s", async (_name, body) => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const res = await postRaw(h, cb.url, body(cb.fields));
    expect(res.status).toBe(400);
    await unchanged(p.paymentCode);
    await genuineStillWorks(p.paymentCode, cb);
  });

  it("a callback for an attempt kasa never enrolled (an unknown id): 400, no Sale", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const forged = cb.url.replace(/att-[A-Za-z0-9]+$/, "att-AAAAAAAAAAAAAAAAAAAA");
    const res = await postRaw(h, forged, formBody(change(cb.fields, "VerifyEnrollmentRequestId", "att-AAAAAAAAAAAAAAAAAAAA")));
    expect(res.status).toBe(400);
    await unchanged(p.paymentCode);
    await genuineStillWorks(p.paymentCode, cb);
  });

  it("a callback for an enrollment the MPI did not answer Y (not enrolled): 400, no Sale, the payment still initiated", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    // A genuine-looking callback prepared from another payment, readdressed to the declined attempt.
    const other = await payflexPayment(h);
    const cb = await callbackOf(h, other.paymentRef, APPROVE);
    await toAcs(h, p.paymentRef, NOT_ENROLLED);
    const declined = (await h.store.q.attempts.byPayment(p.paymentCode))[0]!;
    expect(declined.status).not.toBe("acs");
    const url = cb.url.replace(/att-[A-Za-z0-9]+$/, declined.id);
    const res = await postRaw(h, url, formBody(change(cb.fields, "VerifyEnrollmentRequestId", declined.id)));
    expect(res.status).toBe(400);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    expect(h.sales()).toBe(0);
  });

  it("another attempt's genuine callback posted to this attempt's URL: 400, neither payment changes", async () => {
    h = await payflexHarness();
    const a = await payflexPayment(h, 10_000);
    const b = await payflexPayment(h, 10_000);
    const cbA = await callbackOf(h, a.paymentRef, APPROVE);
    const cbB = await callbackOf(h, b.paymentRef, APPROVE);
    const res = await postRaw(h, cbB.url, formBody(cbA.fields));
    expect(res.status).toBe(400);
    await unchanged(a.paymentCode);
    await unchanged(b.paymentCode);
    await genuineStillWorks(a.paymentCode, cbA);
  });

  it("replayed: the second post of the genuine callback is refused; one Sale", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    await genuineStillWorks(p.paymentCode, cb);
    const again = await postRaw(h, cb.url, formBody(cb.fields));
    expect(again.status).toBe(400);
    expect(h.sales()).toBe(1);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(heldCards()).toBe(0);
  });

  it("concurrent callbacks: one Sale, one capture", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const answers = await Promise.all(Array.from({ length: 5 }, () => postRaw(h, cb.url, formBody(cb.fields))));
    expect(answers.filter((r) => r.status === 303)).toHaveLength(1);
    expect(h.sales()).toBe(1);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(heldCards()).toBe(0);
  });

  it("a forged Status Y with made-up Eci/Cavv but every echo right: kasa asks, the bank refuses (1117), failed", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const forged = change(cb.fields, "Cavv", "AAAAAAAAAAAAAAAAAAAAAAAAAAA=");
    const res = await postRaw(h, cb.url, formBody(forged));
    expect(res.headers.get("location")).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(h.sales()).toBe(1);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
  });

  it("a Status N callback with the echoes right fails the payment without a Sale", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const res = await postRaw(h, cb.url, formBody(change(cb.fields, "Status", "N")));
    expect(res.headers.get("location")).toContain("status=failed");
    expect(h.sales()).toBe(0);
  });

  it("the buyer's journey through the real pages ends at the shop, and a bank URL never sees kasa's callback twice", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const done = await payAtBank(h, p.paymentRef, APPROVE);
    expect(done.leftTo).toContain("status=captured");
    expect(done.trail.filter((v) => v.url.includes("/handoff/callback/"))).toHaveLength(1);
    expect(done.trail.some((v) => v.url.startsWith(BANK))).toBe(true);
    void buyerOf;
  });
});
