import { describe, expect, it } from "vitest";
import { SIM_ACS_WINDOW_MS } from "../../../src/bank/sim/sim-limits";
import { createSimBank } from "../../../src/bank/sim/sim-bank";
import { sensitive } from "../../../src/sensitive";
import { readForm } from "./read-form";
import { acsSubmission, BASE_URL, cardOf, CVV, cb, NONCE, newBank, postedFields, RETURN_ORIGIN, startOf, T0 } from "./sim-fixtures";

const PAN = "4000001100000009";

const decodePayload = (token: string): string => Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8");

const flipOneBit = (text: string, index: number): string =>
  text.slice(0, index) + String.fromCharCode(text.charCodeAt(index) ^ 1) + text.slice(index + 1);

describe("product 6.4 callback token: signed, single attempt, time-limited", () => {
  it("accepts the genuine callback", async () => {
    const bank = newBank();
    const { form } = await acsSubmission(bank, PAN, "att_1");
    expect(await bank.verifyCallback(cb(form), { amount: 1, installment: 1, attemptId: "att_1", nowMs: T0 })).toEqual({
      ok: true,
      authenticated: true,
      bankProfile: "approve",
    });
  });

  it("refuses the token with any one bit flipped", async () => {
    const bank = newBank();
    const { form } = await acsSubmission(bank, PAN, "att_1");
    const token = form.token ?? "";
    for (let i = 0; i < token.length; i++) {
      const forged = { ...form, token: flipOneBit(token, i) };
      expect(
        await bank.verifyCallback(cb(forged), { amount: 1, installment: 1, attemptId: "att_1", nowMs: T0 }),
        `bit flip at ${i}`,
      ).toEqual({ ok: false });
    }
  });

  it("refuses a token made for another attempt", async () => {
    const bank = newBank();
    const { form } = await acsSubmission(bank, PAN, "att_1");
    expect(await bank.verifyCallback(cb(form), { amount: 1, installment: 1, attemptId: "att_2", nowMs: T0 })).toEqual({ ok: false });
  });

  it("refuses a token once the ACS window has passed", async () => {
    const bank = newBank();
    const { form } = await acsSubmission(bank, PAN, "att_1");
    const at = (nowMs: number) => bank.verifyCallback(cb(form), { amount: 1, installment: 1, attemptId: "att_1", nowMs });
    expect((await at(T0 + SIM_ACS_WINDOW_MS - 1)).ok).toBe(true);
    expect(await at(T0 + SIM_ACS_WINDOW_MS)).toEqual({ ok: false });
  });

  it("refuses a token signed with another secret, a request token, and no token", async () => {
    const { form } = await acsSubmission(newBank("another-secret-0123456789"), PAN, "att_1");
    const bank = newBank();
    expect(await bank.verifyCallback(cb(form), { amount: 1, installment: 1, attemptId: "att_1", nowMs: T0 })).toEqual({ ok: false });
    const start = postedFields(await startOf(bank, PAN, "att_1"));
    expect(
      await bank.verifyCallback(cb({ token: start.request ?? "", otp: "123456" }), {
        amount: 1,
        installment: 1,
        attemptId: "att_1",
        nowMs: T0,
      }),
    ).toEqual({
      ok: false,
    });
    expect(await bank.verifyCallback(cb({ otp: "123456" }), { amount: 1, installment: 1, attemptId: "att_1", nowMs: T0 })).toEqual({
      ok: false,
    });
  });

  it.each([
    ["a wrong code", { otp: "654321" }],
    ["an empty code", { otp: "" }],
    ["the cancel button", { action: "cancel" }],
  ])("does not authenticate on %s, and capture refuses it", async (_, change) => {
    const bank = newBank();
    const { form } = await acsSubmission(bank, PAN, "att_1");
    const callback = await bank.verifyCallback(cb({ ...form, ...change }), { amount: 1, installment: 1, attemptId: "att_1", nowMs: T0 });
    expect(callback).toMatchObject({ ok: true, authenticated: false });
    if (!callback.ok) return;
    expect(await bank.capture({ attemptId: "att_1", amount: 100, installment: 1, bankProfile: callback.bankProfile })).toEqual({
      approved: false,
      reason: "not_authenticated",
    });
  });

  it("answers a retried capture of one attempt with the same reference", async () => {
    const bank = newBank();
    const first = await bank.capture({ attemptId: "att_1", amount: 100, installment: 1, bankProfile: "approve" });
    expect(await newBank().capture({ attemptId: "att_1", amount: 100, installment: 1, bankProfile: "approve" })).toEqual(first);
    expect(await bank.capture({ attemptId: "att_2", amount: 100, installment: 1, bankProfile: "approve" })).not.toEqual(first);
  });
});

describe("product 6.3 ACS page", () => {
  it("shows amount, installments and masked card, never the PAN, CVV or expiry", async () => {
    const bank = newBank();
    const { page, form } = await acsSubmission(bank, PAN, "att_1");
    expect(page.body).toContain("1.234,56 TL");
    expect(page.body).toContain("3 taksit");
    expect(page.body).toContain("400000******0009");
    expect(page.body).not.toContain(PAN);
    const withoutToken = page.body.replace(form.token ?? "", "");
    expect(withoutToken).not.toContain(CVV);
    expect(page.body).not.toMatch(/name="(pan|cv2|expireMonth|expireYear)"/);
    expect(page.body).toContain('autocomplete="one-time-code"');
  });

  it("keeps card data out of the tokens and out of the 3D start result's JSON", async () => {
    const bank = newBank();
    const start = await startOf(bank, PAN, "att_1");
    const { form } = await acsSubmission(bank, PAN, "att_1");
    const request = JSON.parse(decodePayload(postedFields(start).request ?? ""));
    const callback = JSON.parse(decodePayload(form.token ?? ""));
    // Only these claims travel: attempt, profile, amount, installment, callback, return origin, expiry.
    expect(Object.keys(request)).toEqual(["k", "a", "p", "m", "i", "c", "r", "x"]);
    expect(Object.keys(callback)).toEqual(["k", "a", "p", "x"]);
    for (const text of [request.a, request.c, request.r, callback.a]) {
      expect(text).not.toContain(PAN.slice(0, 6));
      expect(text).not.toContain(PAN.slice(-4));
      expect(text).not.toContain(CVV);
    }
    expect(JSON.stringify(start)).not.toContain(PAN);
  });

  it("sets a CSP that lets the form reach the callback and the partner's return origin", async () => {
    const { page } = await acsSubmission(newBank(), PAN, "att_1");
    expect(page.headers["Content-Security-Policy"]).toContain(`form-action ${BASE_URL} ${RETURN_ORIGIN};`);
    expect(page.headers["Cache-Control"]).toBe("no-store");
  });

  it("shows a generic error for a tampered, foreign or expired request", async () => {
    const bank = newBank();
    const fields = postedFields(await startOf(bank, PAN, "att_1"));
    const request = fields.request ?? "";
    const tampered = { ...fields, request: flipOneBit(request, 3) };
    const foreign = postedFields(await startOf(newBank("another-secret-0123456789"), PAN, "att_1"));
    for (const [posted, nowMs] of [
      [tampered, T0],
      [foreign, T0],
      [fields, T0 + SIM_ACS_WINDOW_MS],
    ] as const) {
      const page = bank.renderAcsPage(posted, { nonce: NONCE, nowMs, traceId: "tr_test" });
      expect(page.status).toBe(400);
      expect(page.body).not.toContain("<form");
      expect(page.body).not.toContain(PAN);
      expect(page.body).toContain("tr_test");
    }
  });

  it("takes the amount from the signed request, not from posted fields", async () => {
    const bank = newBank();
    const fields = { ...postedFields(await startOf(bank, PAN, "att_1")), amount: "1" };
    const page = bank.renderAcsPage(fields, { nonce: NONCE, nowMs: T0 });
    expect(page.body).toContain("1.234,56 TL");
  });
});

describe("product 6 start3d", () => {
  it("returns the auto-submit form to the ACS with card fields kept Sensitive", async () => {
    const bank = newBank();
    const start = await startOf(bank, PAN, "att_1");
    expect(bank.acsOrigin).toBe(BASE_URL);
    expect(start).toMatchObject({ kind: "form", action: `${BASE_URL}/sim-bank/acs` });
    expect(Object.keys(postedFields(start))).toEqual(["pan", "expireMonth", "expireYear", "cv2", "request"]);
    expect(postedFields(start).pan).toBe(PAN);
  });

  it.each([
    ["a Luhn-invalid PAN", cardOf("4000001100000008")],
    ["a short PAN", cardOf("40000011")],
    ["an expired card", cardOf(PAN, "12", "29")],
    ["a bad month", cardOf(PAN, "13", "34")],
    ["a bad CVV", cardOf(PAN, "12", "34", "12")],
  ])("declines %s", async (_, card) => {
    const bank = newBank();
    const input = { attemptId: "att_1", amount: 100, installment: 1, callbackUrl: `${BASE_URL}/cb`, nowMs: T0 };
    expect(await bank.start3d({ ...input, card })).toEqual({ kind: "declined" });
  });

  it("accepts a card expiring this month in Istanbul time and any Luhn-valid PAN outside the table", async () => {
    const bank = newBank();
    const input = { attemptId: "att_1", amount: 100, installment: 1, callbackUrl: `${BASE_URL}/cb`, nowMs: T0 };
    expect((await bank.start3d({ ...input, card: cardOf(PAN, "01", "30") })).kind).toBe("form");
    expect((await bank.start3d({ ...input, card: cardOf("4111111111111111") })).kind).toBe("form");
  });

  it("refuses a short secret and serves the ACS under the base path", () => {
    expect(() => createSimBank({ secret: sensitive("short"), baseUrl: BASE_URL })).toThrow();
    const bank = createSimBank({ secret: sensitive("sim-secret-for-tests-0123456789"), baseUrl: "https://x.test/kasa/" });
    expect(bank.acsUrl).toBe("https://x.test/kasa/sim-bank/acs");
    expect(bank.acsOrigin).toBe("https://x.test");
  });

  it("renders the ACS form that posts to the callback URL it was given", async () => {
    const bank = newBank();
    const page = bank.renderAcsPage(postedFields(await startOf(bank, PAN, "att_9")), { nonce: NONCE, nowMs: T0 });
    expect(readForm(page.body)).toMatchObject({ action: `${BASE_URL}/handoff/callback/att_9` });
  });
});
