import type { Sensitive } from "../../sensitive";
import { toHttpUrl } from "../../html";
import type { CallbackContext, CallbackResult, Start3dInput, Start3dResult } from "../gateway";
import { issueAcsRequest, readCallbackToken } from "./acs-claims";
import { ACS_CALLBACK_FIELDS } from "./acs-page";
import { isCardAcceptable } from "./card-checks";
import { SIM_ACS_WINDOW_MS, SIM_OTP } from "./sim-limits";
import { toSimProfile } from "../test-cards";

/** What a callback that did not authenticate yields as `bankProfile`: capture refuses it. */
export const SIM_UNAUTHENTICATED = "unauthenticated";

/** Our own bug, not the caller's: amounts and counts come from kasa's records. */
export const assertPositiveInt = (name: string, value: number): void => {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`sim bank: ${name} must be a positive integer`);
};

/**
 * The bank's 3D start: card checks and the card's profile, then the form to the ACS. The card's
 * profile is fixed here, signed into the request, so nothing the browser posts later can change it.
 */
export const startSim3d = async (secret: Sensitive<string>, acsUrl: string, input: Start3dInput): Promise<Start3dResult> => {
  assertPositiveInt("amount", input.amount);
  assertPositiveInt("installment", input.installment);
  toHttpUrl(input.callbackUrl);
  const returnOrigin = input.returnOrigin ? toHttpUrl(input.returnOrigin).origin : null;
  const profile = toSimProfile(input.card.pan.reveal());
  if (!isCardAcceptable(input.card, input.nowMs) || profile === "decline_at_3d") return { kind: "declined" };
  const request = issueAcsRequest(secret, {
    attemptId: input.attemptId,
    profile,
    amount: input.amount,
    installment: input.installment,
    callbackUrl: input.callbackUrl,
    returnOrigin,
    expiresAtMs: input.nowMs + SIM_ACS_WINDOW_MS,
  });
  // Card fields go to the ACS like a real 3D form; they stay Sensitive until rendered.
  const { pan, expireMonth, expireYear, cv2 } = input.card;
  return { kind: "form", action: acsUrl, fields: { pan, expireMonth, expireYear, cv2, request } };
};

/**
 * The relay's check of what the ACS page posted. Stateless: the token binds attempt and deadline;
 * a replay for the same attempt is refused by the relay, whose attempt is no longer open.
 */
export const verifySimCallback = async (
  secret: Sensitive<string>,
  form: Readonly<Record<string, string>>,
  context: CallbackContext,
): Promise<CallbackResult> => {
  const claim = readCallbackToken(secret, form[ACS_CALLBACK_FIELDS.token], context.nowMs);
  if (claim === null || claim.attemptId !== context.attemptId) return { ok: false };
  // The code is public test data, so a plain comparison is fine; the token is what is secret.
  const authenticated =
    form[ACS_CALLBACK_FIELDS.action] !== "cancel" && form[ACS_CALLBACK_FIELDS.otp] === SIM_OTP && claim.profile !== "auth_fails";
  return { ok: true, authenticated, bankProfile: authenticated ? claim.profile : SIM_UNAUTHENTICATED };
};
