import { afterEach, describe, expect, it } from "vitest";
import { OTHER_KEY } from "../support/fixtures";
import { harness, type Harness } from "../support/harness";
import { createPayment, eventsOf, paymentRow, TEST_CARDS_SEED } from "./payments-flow";

// Product 21: the buyer's side without a browser, in sandbox mode, through the same relay, bank and
// callback code: one row per test card of product 6, plus attempts, limits, scoping and mode.

let h: Harness;
afterEach(async () => h?.close());

const sandbox = () => harness({ seed: TEST_CARDS_SEED, config: { mode: "sandbox" } });
const simulate = (code: string, body: Record<string, unknown>, key?: string) =>
  h.post(`/sandbox/payments/${code}/simulate`, body, key === undefined ? undefined : { key });

describe("product 21 simulate: every test card of product 6 gives the outcome its row promises", () => {
  it.each([
    ["4000001100000009", "T-1", 3, "captured", ["payment.captured"]],
    ["4000002200000006", "T-1", 6, "captured", ["payment.captured"]],
    ["5400006600000006", "T-1", 1, "captured", ["payment.captured"]],
    ["4000003300000003", "T-1", 1, "captured", ["payment.captured"]],
    ["4000004400000000", "T-1", 1, "captured", ["payment.captured"]],
    ["4000005500000006", "T-FX", 1, "captured", ["payment.captured"]],
    ["5400007700000003", "T-1", 1, "payment_declined", []],
    ["4000008800000007", "T-1", 1, "failed", ["payment.failed"]],
    ["4000009900000004", "T-1", 1, "failed", ["payment.failed"]],
    ["4000001200000008", "T-1", 1, "captured", ["payment.captured"]],
    ["5400001300000000", "T-1", 1, "captured", ["payment.captured"]],
    ["4000001500000005", "T-1", 1, "captured", ["payment.captured"]],
    ["3400001400000004", "T-1", 1, "captured", ["payment.captured"]],
  ] as const)("%s on %s x%i: %s", async (pan, terminalId, installment, outcome, events) => {
    h = await sandbox();
    const created = await createPayment(h, { terminalId, installment });
    const r = await simulate(created.json.paymentCode, { card: pan });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ paymentCode: created.json.paymentCode, outcome });
    expect(r.json.status).toBe(outcome === "payment_declined" ? "initiated" : outcome);
    expect(await eventsOf(h, created.json.paymentCode)).toEqual(events);
  });

  it.each([
    ["4000003300000003", 3, "installment_not_allowed"],
    ["4000001200000008", 3, "installment_not_allowed"],
    ["4000005500000006", 1, "refused"],
  ])("%s x%i on T-1 is refused at the relay: %s (the generic page shows no code)", async (pan, installment, outcome) => {
    h = await sandbox();
    const created = await createPayment(h, { terminalId: "T-1", installment });
    expect((await simulate(created.json.paymentCode, { card: pan })).json).toMatchObject({ outcome, status: "initiated" });
  });
});

describe("product 21 simulate: same attempts and codes as a browser", () => {
  it("declines count: the third decline fails the payment; the next simulate gets the relay's 429 code", async () => {
    h = await sandbox();
    const { paymentCode } = (await createPayment(h)).json;
    for (let i = 0; i < 3; i++) expect((await simulate(paymentCode, { card: "5400007700000003" })).json.outcome).toBe("payment_declined");
    expect((await paymentRow(h, paymentCode)).attemptsCounted).toBe(3);
    const after = await simulate(paymentCode, { card: "4000001100000009" });
    expect(after.json).toMatchObject({ outcome: "card_attempt_limit_exceeded", status: "failed" });
  });

  it("a wrong 3D code fails authentication; a captured payment cannot be paid twice", async () => {
    h = await sandbox();
    const first = (await createPayment(h)).json.paymentCode;
    expect((await simulate(first, { card: "4000001100000009", otp: "000000" })).json).toMatchObject({
      outcome: "failed",
      status: "failed",
    });
    const second = (await createPayment(h)).json.paymentCode;
    expect((await simulate(second, { card: "4000001100000009" })).json.outcome).toBe("captured");
    expect((await simulate(second, { card: "4000001100000009" })).json).toMatchObject({
      outcome: "payment_prepare_already_started",
      status: "captured",
    });
  });

  it("a payment link: simulate pays it with the chosen count; the link completes", async () => {
    h = await sandbox();
    const link = await h.post("/v1/payment-links", { amount: 100_000, terminalId: "T-1" });
    const r = await h.post(`/sandbox/payment-links/${link.json.id}/simulate`, { card: "4000001100000009", installment: 3 });
    expect(r.json).toMatchObject({ outcome: "captured", status: "captured", installmentCount: 3 });
    expect((await h.get(`/v1/payment-links/${link.json.id}`)).json.status).toBe("completed");
    const again = await h.post(`/sandbox/payment-links/${link.json.id}/simulate`, { card: "4000001100000009" });
    expect([again.status, again.json.error.code]).toEqual([409, "payment_link_already_paid"]);
  });
});

describe("product 21 simulate: scope, shape and mode", () => {
  it("another partner's payment or link is 404", async () => {
    h = await sandbox();
    const { paymentCode } = (await createPayment(h)).json;
    const link = await h.post("/v1/payment-links", { amount: 100_000, terminalId: "T-1" });
    expect((await simulate(paymentCode, { card: "4000001100000009" }, OTHER_KEY)).json.error.code).toBe("payment_not_found");
    expect(
      (await h.post(`/sandbox/payment-links/${link.json.id}/simulate`, { card: "4000001100000009" }, { key: OTHER_KEY })).json.error.code,
    ).toBe("payment_link_not_found");
    expect((await paymentRow(h, paymentCode)).status).toBe("initiated");
  });

  it.each([
    [{}, "card"],
    [{ card: "4000-0011" }, "card"],
    [{ card: "4000001100000009", cv2: "1" }, "cv2"],
    [{ card: "4000001100000009", color: "red" }, "color"],
  ])("body %j is 400 naming %s", async (body, field) => {
    h = await sandbox();
    const { paymentCode } = (await createPayment(h)).json;
    const r = await simulate(paymentCode, body);
    expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
    expect(r.json.error.message).toContain(field);
  });

  it("outside sandbox mode both paths are 404 not_found", async () => {
    h = await harness({ seed: TEST_CARDS_SEED });
    const { paymentCode } = (await createPayment(h)).json;
    expect((await simulate(paymentCode, { card: "4000001100000009" })).json.error.code).toBe("not_found");
    expect((await h.post("/sandbox/payment-links/pl_x/simulate", { card: "4000001100000009" })).json.error.code).toBe("not_found");
  });
});
