import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../src/limits";
import type { Outcome } from "../../src/http/sandbox/form-client";
import { editPartners, editTerminal, setConnectionsActive } from "../support/catalog-edits";
import { harness, type Harness } from "../support/harness";
import { answerAcs, clientOf, createPayment, CVV, handOff, pageCode, paymentRow, seedWith, tightenConnection } from "./payments-flow";

let h: Harness;
afterEach(async () => h?.close());

const APPROVED = "4000001100000009"; // bonus, credit, Demo Bank A
const WORLD = "4000002200000006"; // world, credit, Demo Bank B
const DECLINED = "5400007700000003";
const FOREIGN = "4000005500000006";
const DEBIT = "4000003300000003";

const refusal = (o: Outcome) => ({ status: o.page?.status, code: o.page ? pageCode(o.page.body) : null });
const atAcs = (o: Outcome) => o.page?.status === 200 && o.page.url.endsWith("/sim-bank/acs");

describe("product 6.1 bad card data: 400 page, nothing re-rendered, not counted", () => {
  it.each([
    ["PAN failing Luhn", { pan: "4000001100000008" }],
    ["PAN too short", { pan: "400000110000" }],
    ["PAN too long", { pan: "40000011000000000009" }],
    ["PAN with letters", { pan: "4000a01100000009" }],
    ["PAN missing", { pan: "" }],
    ["month 13", { expireMonth: "13" }],
    ["month without leading zero", { expireMonth: "1" }],
    ["year of four digits", { expireYear: "2034" }],
    ["card expired last month (Istanbul)", { expireMonth: "10", expireYear: "26" }],
    ["CVV of two digits", { cv2: "12" }],
    ["CVV of five digits", { cv2: "12345" }],
    ["CVV with letters", { cv2: "8a7" }],
  ])("%s", async (_n, over) => {
    h = await harness();
    const c = await createPayment(h);
    const r = await handOff(h, c.json.paymentRef, APPROVED, over);
    expect(refusal(r)).toEqual({ status: 400, code: "validation_error" });
    for (const value of [APPROVED, CVV, ...Object.values(over).filter((v) => v.length > 3)]) expect(r.page!.body).not.toContain(value);
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ attemptsCounted: 0, threeDStarted: false, maskedPan: null });
  });

  it("a card expiring this month is still good; spaces between digit groups are accepted", async () => {
    h = await harness();
    const c = await createPayment(h);
    expect(atAcs(await handOff(h, c.json.paymentRef, "4000 0011 0000 0009", { expireMonth: "11", expireYear: "26" }))).toBe(true);
  });

  it("five bad submissions leave the whole allowance", async () => {
    h = await harness();
    const c = await createPayment(h);
    for (let i = 0; i < 5; i++) await handOff(h, c.json.paymentRef, APPROVED, { cv2: "1" });
    expect(atAcs(await handOff(h, c.json.paymentRef, APPROVED))).toBe(true);
  });

  it("a body that is not a form is a 400 page, not JSON", async () => {
    h = await harness();
    const res = await h.runtime.app.request("http://kasa.test/handoff", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("product 6.2 the relay's checks walk in their order (each pair: the earlier one answers)", () => {
  it("bad card data before the ref: an unknown ref with a bad card is 400", async () => {
    h = await harness();
    expect(refusal(await handOff(h, "ref_nope", APPROVED, { cv2: "1" }))).toEqual({ status: 400, code: "validation_error" });
  });

  it("expired before already started", async () => {
    h = await harness();
    const c = await createPayment(h);
    await handOff(h, c.json.paymentRef, APPROVED);
    h.clock.advance(30 * MINUTE_MS);
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED)).code).toBe("payment_ref_expired");
  });

  it("already started before attempts left", async () => {
    h = await harness();
    const c = await createPayment(h);
    await handOff(h, c.json.paymentRef, DECLINED);
    await handOff(h, c.json.paymentRef, APPROVED);
    await editPartners(h.store, { cardAttemptLimit: 1 });
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED)).code).toBe("payment_prepare_already_started");
  });

  it("attempts left before connection active", async () => {
    h = await harness({ seed: seedWith({ partner: { cardAttemptLimit: 1 } }) });
    const c = await createPayment(h);
    await handOff(h, c.json.paymentRef, DECLINED);
    await setConnectionsActive(h.store, false);
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED)).code).toBe("card_attempt_limit_exceeded");
  });

  it("connection active before PSP active", async () => {
    h = await harness({ seed: seedWith({ psp: { active: false }, connection: { active: false } }) });
    const c = await createPayment(h);
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED)).code).toBe("virtual_pos_inactive");
  });

  it("PSP active before card type", async () => {
    h = await harness({ seed: seedWith({ psp: { active: false } }) });
    const c = await createPayment(h);
    expect(refusal(await handOff(h, c.json.paymentRef, FOREIGN)).code).toBe("psp_inactive");
    expect((await paymentRow(h, c.json.paymentCode)).attemptsCounted).toBe(0);
  });

  it("card type before installment eligibility: a foreign card asked for 3 installments gets the card-type page", async () => {
    h = await harness();
    const c = await createPayment(h, { installment: 3 });
    expect(refusal(await handOff(h, c.json.paymentRef, FOREIGN))).toEqual({ status: 422, code: null });
  });

  it("installment eligibility before connection limits (counted)", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { dailyMax: 15_000 } } }) });
    const c = await createPayment(h, { installment: 3 });
    await createPayment(h, { amount: 5_000 });
    await tightenConnection(h, { dailyMax: 14_000 });
    expect(refusal(await handOff(h, c.json.paymentRef, DEBIT))).toEqual({ status: 422, code: "installment_not_allowed" });
    expect((await paymentRow(h, c.json.paymentCode)).attemptsCounted).toBe(1);
  });

  it("connection limits before the bank: a declining card is not even tried (not counted)", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { dailyMax: 15_000 } } }) });
    const c = await createPayment(h);
    await createPayment(h, { amount: 5_000 });
    await tightenConnection(h, { dailyMax: 14_000 });
    expect(refusal(await handOff(h, c.json.paymentRef, DECLINED))).toEqual({ status: 422, code: null });
    expect((await paymentRow(h, c.json.paymentCode)).attemptsCounted).toBe(0);
  });

  it("last, the bank: payment_declined", async () => {
    h = await harness();
    const c = await createPayment(h);
    expect(refusal(await handOff(h, c.json.paymentRef, DECLINED))).toEqual({ status: 422, code: "payment_declined" });
  });
});

describe("interface 7.4 installment_not_allowed at handoff (reasons 1 and 3), counted", () => {
  it.each([
    ["reason 1: a debit card cannot split a charge", DEBIT, "T-1", 3],
    ["reason 1: a BIN with installments blocked", "4000001200000008", "T-1", 3],
    ["reason 1: an unresolved BIN", "3400001400000004", "T-1", 2],
    ["reason 3: no rate row prices this count for this card", WORLD, "T-X", 3],
  ])("%s", async (_n, pan, terminalId, installment) => {
    h = await harness({
      seed: seedWith({
        terminals: [
          {
            id: "T-X",
            partner: "ptn_test",
            connection: "vpos-1",
            installments: [1, 3],
            rates: [
              { count: 1, rateBps: 100 },
              { count: 3, brand: "bonus", rateBps: 400 },
            ],
          },
        ],
      }),
    });
    const c = await createPayment(h, { terminalId, installment });
    expect(refusal(await handOff(h, c.json.paymentRef, pan))).toEqual({ status: 422, code: "installment_not_allowed" });
    expect((await paymentRow(h, c.json.paymentCode)).attemptsCounted).toBe(1);
  });
});

describe("product 16 card family not allowed at the terminal: 403 terminal_not_allowed at handoff", () => {
  it("is a card-type rejection: generic page, counted", async () => {
    h = await harness({
      seed: seedWith({
        terminals: [
          {
            id: "T-CR",
            partner: "ptn_test",
            connection: "vpos-1",
            installments: [1],
            allowedCardFamilies: ["credit"],
            rates: [{ count: 1, rateBps: 100 }],
          },
        ],
      }),
    });
    const c = await createPayment(h, { terminalId: "T-CR" });
    expect(refusal(await handOff(h, c.json.paymentRef, "4000004400000000"))).toEqual({ status: 403, code: null });
    expect((await paymentRow(h, c.json.paymentCode)).attemptsCounted).toBe(1);
    expect(atAcs(await handOff(h, c.json.paymentRef, APPROVED))).toBe(true);
  });

  it("a terminal deactivated after creation: 403 terminal_not_allowed with its code, not counted", async () => {
    h = await harness();
    const c = await createPayment(h);
    await editTerminal(h.store, "T-1", { active: false });
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED))).toEqual({ status: 403, code: "terminal_not_allowed" });
    expect((await paymentRow(h, c.json.paymentCode)).attemptsCounted).toBe(0);
  });
});

describe("interface 4.7 single-use paymentRef", () => {
  it.each([
    ["3D started (ACS open)", async (ref: string) => void (await handOff(h, ref, APPROVED))],
    ["captured", async (ref: string) => void (await answerAcs(h, await handOff(h, ref, APPROVED)))],
    ["failed at 3D", async (ref: string) => void (await answerAcs(h, await handOff(h, ref, "4000008800000007")))],
  ])("after %s a new handoff is 409 payment_prepare_already_started", async (_n, use) => {
    h = await harness();
    const c = await createPayment(h);
    await use(c.json.paymentRef);
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED))).toEqual({ status: 409, code: "payment_prepare_already_started" });
  });

  it("two simultaneous handoffs of one ref: one reaches the bank, the other is 409", async () => {
    h = await harness();
    const c = await createPayment(h);
    const both = await Promise.all([handOff(h, c.json.paymentRef, APPROVED), handOff(h, c.json.paymentRef, WORLD)]);
    expect(both.filter(atAcs)).toHaveLength(1);
    expect(both.map((o) => refusal(o).code).filter((x) => x !== null)).toEqual(["payment_prepare_already_started"]);
    expect(await h.store.q.attempts.byPayment(c.json.paymentCode)).toHaveLength(1);
  });
});

describe("product 5 rates fixed at 3D start from the BIN; card data never stored", () => {
  it.each([
    ["a bonus card gets the brand row", APPROVED, 420, null, "400000******0009", "credit", "Demo Bank A"],
    ["a world card gets the generic row", WORLD, 450, 100, "400000******0006", "credit", "Demo Bank B"],
  ])("%s", async (_n, pan, rate, fee, masked, family, bank) => {
    h = await harness();
    const c = await createPayment(h, { installment: 3 });
    await handOff(h, c.json.paymentRef, pan);
    const r = await h.get(`/v1/payments/${c.json.paymentCode}`);
    expect(r.json).toMatchObject({
      status: "initiated",
      appliedRateBps: rate,
      appliedFixedFee: fee,
      maskedPan: masked,
      cardFamily: family,
      cardBank: bank,
    });
    const stored = JSON.stringify(await paymentRow(h, c.json.paymentCode));
    expect(stored).not.toContain(pan);
    expect(stored).not.toContain(pan.slice(0, 8)); // the 8-digit BIN is not kept beside the last four
  });

  it("a rate changed after 3D start does not change what is charged", async () => {
    h = await harness();
    const c = await createPayment(h, { installment: 3, amount: 10_000 });
    const acs = await handOff(h, c.json.paymentRef, APPROVED);
    await editTerminal(h.store, "T-1", { rates: [{ count: 3, brand: null, onUs: null, rateBps: 999, fixedFee: null }] });
    await answerAcs(h, acs);
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ status: "captured", appliedRateBps: 420, commissionAmount: 420 });
  });

  it("the unresolved BIN: brand, family and bank null; the brand-less count-1 row", async () => {
    h = await harness();
    const c = await createPayment(h);
    await answerAcs(h, await handOff(h, c.json.paymentRef, "3400001400000004"));
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({
      status: "captured",
      cardBrand: null,
      cardFamily: null,
      cardBank: null,
      appliedRateBps: 199,
      maskedPan: "340000******0004",
    });
  });
});

describe("product 6.3 the simulated ACS", () => {
  it("shows the amount and the masked card, never the full PAN or the CVV", async () => {
    h = await harness();
    const c = await createPayment(h, { amount: 123_456, installment: 3 });
    const acs = await handOff(h, c.json.paymentRef, APPROVED);
    const body = acs.page!.body;
    expect(body).toContain("1.234,56 TL");
    expect(body).toContain("400000******0009");
    expect(body).not.toContain(APPROVED);
    expect(body).not.toContain(`value="${CVV}"`);
  });

  it("a tampered bank form is refused by the ACS (400) and nothing changes", async () => {
    h = await harness();
    const c = await createPayment(h);
    const first = await clientOf(h).post("http://kasa.test/sim-bank/acs", { request: "forged.token" });
    expect(first.page?.status).toBe(400);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("initiated");
  });
});
