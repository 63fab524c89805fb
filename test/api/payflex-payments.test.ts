import { afterEach, describe, expect, it } from "vitest";
import { heldCards } from "../../src/bank/payflex/callback";
import { PAYFLEX_ATTEMPT_CARD } from "../../src/bank/payflex/sim/acs";
import { eventsOf, paymentRow } from "./payments-flow";
import { buyerOf, payAtBank, payflexHarness, payflexPayment, toAcs, type PayflexHarness } from "./payflex-flow";

// Issue 35: card payments through the PayFlex adapter and the built-in PayFlex simulator: kasa's
// own enrollment, the issuer's ACS, the MPI's unsigned callback, and kasa's own Sale, whose answer
// alone decides. One Sale per attempt.

const APPROVE = "4000001100000009";
const MASTERCARD = "5400006600000006";
const NOT_ENROLLED = "5400007700000003";
const AUTH_FAILS = "4000008800000007";
const NO_FUNDS = "4000009900000004";

let h: PayflexHarness;
afterEach(async () => h?.close());

const attemptOf = async (code: string) => (await h.store.q.attempts.byPayment(code))[0]!;

describe("issue 35: PayFlex payments", () => {
  it.each([
    [APPROVE, 1],
    [MASTERCARD, 3],
  ] as const)("%s (%i installments): enrollment, ACS, callback, one Sale: captured", async (pan, installment) => {
    h = await payflexHarness();
    const p = await payflexPayment(h, 12_345, installment);
    const done = await payAtBank(h, p.paymentRef, pan);
    expect(done.leftTo).toContain(`paymentCode=${p.paymentCode}&status=captured`);
    const attempt = await attemptOf(p.paymentCode);
    expect(await paymentRow(h, p.paymentCode)).toMatchObject({ status: "captured", bankReference: attempt.id });
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
    expect(h.kinds()).toEqual(["enrollment", "Sale"]);
    // kasa's attempt id is every bank-side id; kasa's own amount and count are in the Sale.
    const enrollment = new URLSearchParams(h.sent[0]!.body);
    expect(enrollment.get("VerifyEnrollmentRequestId")).toBe(attempt.id);
    expect(enrollment.get("PurchaseAmount")).toBe("123.45");
    expect(enrollment.get("InstallmentCount")).toBe(installment > 1 ? String(installment) : null);
    const sale = new URLSearchParams(h.sent[1]!.body).get("prmstr")!;
    for (const id of ["TransactionId", "MpiTransactionId", "OrderId"]) expect(sale).toContain(`<${id}>${attempt.id}</${id}>`);
    expect(sale).toContain("<CurrencyAmount>123.45</CurrencyAmount>");
    expect(sale).not.toContain("<Cvv>");
    expect(heldCards()).toBe(0);
    expect(h.log.lines.join("\n")).not.toContain(pan);
  });

  it("the relay posts PaReq, TermUrl and MD unchanged to the ACS; no card field, no button name", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const out = await toAcs(h, p.paymentRef, APPROVE);
    const relay = out.trail[0]!;
    expect(relay.headers.get("content-security-policy")).toContain("form-action https://bank.test");
    expect(relay.forms[0]!.fields.map((f) => f.name)).toEqual(["PaReq", "TermUrl", "MD"]);
    expect(relay.forms[0]!.action).toBe("https://bank.test/sim-payflex/acs/auth");
    expect(relay.body).not.toContain(APPROVE);
    expect(relay.forms[0]!.buttons.every((b) => b.name === null)).toBe(true);
  });

  it("not enrolled (VERes N): payment_declined at the handoff, no Sale, the payment stays initiated", async () => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const out = await toAcs(h, p.paymentRef, NOT_ENROLLED);
    expect(out.page?.body).toContain("payment_declined");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("initiated");
    expect(h.kinds()).toEqual(["enrollment"]);
  });

  it.each([
    ["3D fails at the ACS (Status N)", AUTH_FAILS, "123456", 0],
    ["a wrong code (Status N)", APPROVE, "000000", 0],
    ["a 3D attempt only (Status A)", PAYFLEX_ATTEMPT_CARD, "123456", 0],
    ["insufficient funds at the Sale (0051)", NO_FUNDS, "123456", 1],
  ] as const)("%s: failed, payment.failed, the Sales the card reaches", async (_name, pan, otp, sales) => {
    h = await payflexHarness();
    const p = await payflexPayment(h);
    const done = await payAtBank(h, p.paymentRef, pan, otp);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, p.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.failed"]);
    expect(h.sales()).toBe(sales);
    expect(heldCards()).toBe(0);
  });

  it("the MPI's answer lost (500, HTML, nothing): declined at the handoff, nothing can be charged", async () => {
    h = await payflexHarness({
      transport: async (url, _init, send) => (url.includes("MPI_Enrollment") ? new Response("<html>down</html>", { status: 200 }) : send()),
    });
    const p = await payflexPayment(h);
    const out = await buyerOf(h).post("http://kasa.test/handoff", {
      paymentRef: p.paymentRef,
      pan: APPROVE,
      expireMonth: "12",
      expireYear: "34",
      cv2: "857",
    });
    expect(out.page?.body).toContain("payment_declined");
    expect(h.sales()).toBe(0);
  });
});
