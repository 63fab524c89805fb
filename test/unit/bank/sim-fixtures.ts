import type { CardInput, Start3dResult } from "../../../src/bank/gateway";
import { createSimBank, type SimBank } from "../../../src/bank/sim/sim-bank";
import { sensitive } from "../../../src/sensitive";
import { readForm } from "./read-form";

/** Shared set-up of the simulated-bank tests: a fresh bank, a fixed instant, form following. */

export const NONCE = "dGVzdC1ub25jZS0wMTIzNDU2";
export const BASE_URL = "https://kasa.test";
export const RETURN_ORIGIN = "https://shop.example";
export const T0 = Date.UTC(2030, 0, 15, 9, 30);
export const CVV = "731";

export const newBank = (secret = "sim-secret-for-tests-0123456789"): SimBank =>
  createSimBank({ secret: sensitive(secret), baseUrl: BASE_URL });

export const cardOf = (pan: string, expireMonth = "12", expireYear = "34", cv2 = CVV): CardInput => ({
  pan: sensitive(pan),
  expireMonth: sensitive(expireMonth),
  expireYear: sensitive(expireYear),
  cv2: sensitive(cv2),
});

export const callbackUrlOf = (attemptId: string): string => `${BASE_URL}/handoff/callback/${attemptId}`;

export const startOf = (bank: SimBank, pan: string, attemptId: string, amount = 123456, nowMs = T0) =>
  bank.start3d({
    attemptId,
    amount,
    installment: 3,
    card: cardOf(pan),
    callbackUrl: callbackUrlOf(attemptId),
    returnOrigin: `${RETURN_ORIGIN}/checkout/done`,
    nowMs,
  });

/** What the relay's auto-submit page makes the browser post to the ACS. */
export const postedFields = (start: Start3dResult): Record<string, string> => {
  if (start.kind !== "form") throw new Error("expected a 3D form");
  return Object.fromEntries(
    Object.entries(start.fields).map(([name, value]) => [name, typeof value === "string" ? value : value.reveal()]),
  );
};

/** Start 3D, open the ACS page, and return what typing `otp` and pressing a button would post. */
export const acsSubmission = async (
  bank: SimBank,
  pan: string,
  attemptId: string,
  otp = "123456",
  nowMs = T0,
): Promise<{ action: string; form: Record<string, string>; page: ReturnType<SimBank["renderAcsPage"]> }> => {
  const start = await startOf(bank, pan, attemptId, 123456, nowMs);
  const page = bank.renderAcsPage(postedFields(start), { nonce: NONCE, nowMs });
  const { action, hidden } = readForm(page.body);
  return { action, form: { ...hidden, otp, action: "confirm" }, page };
};

/** A callback as the relay hands it over; the simulated bank reads only the parsed form. */
export const cb = (form: Record<string, string>) => ({ form, raw: new Uint8Array(0) });
