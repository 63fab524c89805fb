import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../src/limits";
import { setConnectionsActive, setPspsActive } from "../support/catalog-edits";
import { harness, T0, type Harness } from "../support/harness";
import type { Outcome } from "../../src/http/sandbox/form-client";
import {
  answerAcs,
  createPayment,
  eventsOf,
  handOff,
  pageCode,
  pageTraceId,
  paymentRow,
  RETURN_URL,
  seedWith,
  tightenConnection,
} from "./payments-flow";

let h: Harness;
afterEach(async () => h?.close());

const APPROVED = "4000001100000009";
const DECLINED = "5400007700000003";
const FOREIGN = "4000005500000006";
const DEBIT = "4000003300000003";

const setActive = (h: Harness, table: "connections" | "psps", active: boolean) =>
  table === "connections" ? setConnectionsActive(h.store, active) : setPspsActive(h.store, active);

/** Status and shown code of the page where the handoff stopped. */
const refusal = (o: Outcome) => ({ status: o.page?.status, code: o.page ? pageCode(o.page.body) : null });

const acsReached = (o: Outcome) => o.page?.status === 200 && o.page.url.endsWith("/sim-bank/acs");

describe("interface 7.3 handoff-stage codes, one row each", () => {
  it("payment_ref_invalid 404: unknown ref; the card is not processed", async () => {
    h = await harness();
    const r = await handOff(h, "ref_unknown", APPROVED);
    expect(refusal(r)).toEqual({ status: 404, code: "payment_ref_invalid" });
  });

  it("payment_ref_expired 404: the window has passed", async () => {
    h = await harness();
    const c = await createPayment(h);
    await h.advance(30 * MINUTE_MS);
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED))).toEqual({ status: 404, code: "payment_ref_expired" });
  });

  it("payment_prepare_already_started 409: a second handoff with the same ref", async () => {
    h = await harness();
    const c = await createPayment(h);
    expect(acsReached(await handOff(h, c.json.paymentRef, APPROVED))).toBe(true);
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED))).toEqual({ status: 409, code: "payment_prepare_already_started" });
  });

  it("card_attempt_limit_exceeded 429: allowance exhausted; payment locked to failed with payment.failed", async () => {
    h = await harness();
    const c = await createPayment(h);
    for (let i = 0; i < 3; i++)
      expect(refusal(await handOff(h, c.json.paymentRef, DECLINED))).toEqual({ status: 422, code: "payment_declined" });
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("initiated");
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED))).toEqual({ status: 429, code: "card_attempt_limit_exceeded" });
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.failed"]);
    // The ref stays unusable, and a repeat queues nothing new.
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED))).toEqual({ status: 429, code: "card_attempt_limit_exceeded" });
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.failed"]);
  });

  it("virtual_pos_inactive 422: in-flight payments unaffected, not counted", async () => {
    h = await harness();
    const c = await createPayment(h);
    await setActive(h, "connections", false);
    for (let i = 0; i < 4; i++)
      expect(refusal(await handOff(h, c.json.paymentRef, APPROVED))).toEqual({ status: 422, code: "virtual_pos_inactive" });
    await setActive(h, "connections", true);
    expect(acsReached(await handOff(h, c.json.paymentRef, APPROVED))).toBe(true);
  });

  it("psp_inactive 422: payment stays initiated, not counted, the same ref can be retried", async () => {
    h = await harness({ seed: seedWith({ psp: { active: false } }) });
    const c = await createPayment(h);
    for (let i = 0; i < 4; i++)
      expect(refusal(await handOff(h, c.json.paymentRef, APPROVED))).toEqual({ status: 422, code: "psp_inactive" });
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ status: "initiated", attemptsCounted: 0 });
    await setActive(h, "psps", true);
    expect(acsReached(await handOff(h, c.json.paymentRef, APPROVED))).toBe(true);
  });

  it("virtual_pos_card_type_not_supported 422: generic page without the code; payment stays initiated; counted", async () => {
    h = await harness();
    const c = await createPayment(h);
    const r = await handOff(h, c.json.paymentRef, FOREIGN);
    expect(refusal(r)).toEqual({ status: 422, code: null });
    expect(r.page!.body).not.toContain("virtual_pos_card_type_not_supported");
    expect(pageTraceId(r.page!.body)).toBe(r.page!.headers.get("x-trace-id"));
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ status: "initiated", attemptsCounted: 1 });
  });

  it("payment_declined 422: payment stays initiated; counted; another card on the same payment works", async () => {
    h = await harness();
    const c = await createPayment(h);
    expect(refusal(await handOff(h, c.json.paymentRef, DECLINED))).toEqual({ status: 422, code: "payment_declined" });
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ status: "initiated", attemptsCounted: 1, threeDStarted: false });
    const acs = await handOff(h, c.json.paymentRef, APPROVED);
    expect((await answerAcs(h, acs)).leftTo).toContain("status=captured");
  });
});

describe("interface 3.2 payment transitions at the handoff, one row each", () => {
  it("initiated -> captured: capture approved, webhook payment.captured", async () => {
    h = await harness();
    const c = await createPayment(h);
    const done = await answerAcs(h, await handOff(h, c.json.paymentRef, APPROVED));
    expect(done.leftTo).toBe(`${RETURN_URL}?paymentCode=${c.json.paymentCode}&status=captured`);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.captured"]);
  });

  it.each([
    ["3D rejected (card that fails authentication)", "4000008800000007", "123456", "confirm"],
    ["3D rejected (wrong one-time code)", APPROVED, "000000", "confirm"],
    ["3D rejected (buyer cancels at the ACS)", APPROVED, "", "cancel"],
    ["capture rejected (insufficient funds)", "4000009900000004", "123456", "confirm"],
  ])("initiated -> failed: %s, webhook payment.failed", async (_n, pan, otp, button) => {
    h = await harness();
    const c = await createPayment(h);
    const done = await answerAcs(h, await handOff(h, c.json.paymentRef, pan), otp, button);
    expect(done.leftTo).toBe(`${RETURN_URL}?paymentCode=${c.json.paymentCode}&status=failed`);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("failed");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.failed"]);
  });

  it("initiated -> expired: 3D window elapsed, webhook payment.expired", async () => {
    h = await harness();
    const c = await createPayment(h);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.expired"]);
  });

  it("initiated -> failed: allowance exhausted, card_attempt_limit_exceeded, paymentRef unusable", async () => {
    h = await harness({ seed: seedWith({ partner: { cardAttemptLimit: 1 } }) });
    const c = await createPayment(h);
    await handOff(h, c.json.paymentRef, DECLINED);
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED))).toEqual({ status: 429, code: "card_attempt_limit_exceeded" });
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("failed");
  });

  it("initiated -> initiated: payment_declined counts against the allowance", async () => {
    h = await harness();
    const c = await createPayment(h);
    await handOff(h, c.json.paymentRef, DECLINED);
    await handOff(h, c.json.paymentRef, DECLINED);
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ status: "initiated", attemptsCounted: 2 });
    expect(await eventsOf(h, c.json.paymentCode)).toEqual([]);
  });

  it("initiated -> initiated: virtual_pos_card_type_not_supported counts against the allowance", async () => {
    h = await harness({ seed: seedWith({ connection: { acceptsDebit: false } }) });
    const c = await createPayment(h);
    await handOff(h, c.json.paymentRef, DEBIT);
    await handOff(h, c.json.paymentRef, FOREIGN);
    await handOff(h, c.json.paymentRef, FOREIGN);
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ status: "initiated", attemptsCounted: 3 });
    expect(refusal(await handOff(h, c.json.paymentRef, APPROVED)).code).toBe("card_attempt_limit_exceeded");
  });

  it.each([
    ["psp_inactive", seedWith({ psp: { active: false } }), {}],
    ["a connection limit at 3D start", seedWith({ connection: { limits: { dailyMax: 15_000 } } }), { dailyMax: 14_000 }],
  ])("initiated -> initiated: %s does not count; the same ref may be retried", async (_n, seed, tightened) => {
    h = await harness({ seed });
    // A connection limit can only bite at 3D start if usage grew after creation.
    const c = await createPayment(h, { amount: 10_000 });
    await createPayment(h, { amount: 5_000 });
    await tightenConnection(h, tightened);
    for (let i = 0; i < 5; i++) expect(refusal(await handOff(h, c.json.paymentRef, APPROVED)).status).toBe(422);
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ status: "initiated", attemptsCounted: 0, threeDStarted: false });
  });
});

describe("interface 7.5 / 4.7 connection limits at 3D start: generic page, not counted, ref retried", () => {
  it("shows neither code nor threshold; after the usage drops the same ref goes through", async () => {
    h = await harness({ seed: seedWith({ connection: { limits: { window: { minutes: 10, maxAmount: 15_000 } } } }) });
    const c = await createPayment(h, { amount: 10_000 });
    h.clock.advance(MINUTE_MS);
    await createPayment(h, { amount: 5_000 });
    await tightenConnection(h, { windowMax: 14_999 });
    const r = await handOff(h, c.json.paymentRef, APPROVED);
    expect(refusal(r)).toEqual({ status: 422, code: null });
    expect(r.page!.body).not.toMatch(/pos_|14999|14\.999|15000|15\.000/);
    expect(pageTraceId(r.page!.body)).toMatch(/^tr_/);
    h.clock.set(T0 + 11 * MINUTE_MS); // the other payment left the rolling window
    expect(acsReached(await handOff(h, c.json.paymentRef, APPROVED))).toBe(true);
  });
});
