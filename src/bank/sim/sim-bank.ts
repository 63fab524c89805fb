import type { PageResponse } from "../../http/pages/html";
import { toHttpUrl } from "../../http/pages/html";
import type { Sensitive } from "../../sensitive";
import type {
  BankGateway,
  CallbackResult,
  CaptureInput,
  CaptureResult,
  PayoutInput,
  PayoutResult,
  RefundInput,
  RefundStatusInput,
  Start3dInput,
  Start3dResult,
} from "../gateway";
import { issueAcsRequest, readCallbackToken } from "./acs-claims";
import { ACS_CALLBACK_FIELDS, renderAcsPage, type AcsPageOptions } from "./acs-page";
import { isCardAcceptable } from "./card-checks";
import { newPayoutReference, newRefundReference, toAuthCode, toCaptureReference, toProfileOfCapture } from "./references";
import { toRefundResult, unknownReference } from "./refund-results";
import { SIM_ACS_WINDOW_MS, SIM_OTP } from "./sim-limits";
import { isSimProfile, toSimProfile } from "./test-cards";

/** Where the binary serves the simulated bank (product 6.3); routes are wired elsewhere. */
export const SIM_BANK_PATHS = { acs: "/sim-bank/acs" } as const;

/** What a callback that did not authenticate yields as `bankProfile`: capture refuses it. */
export const SIM_UNAUTHENTICATED = "unauthenticated";

// Shorter secrets are guessable; the sandbox generates one per database.
const SIM_SECRET_MIN_CHARS = 16;

export interface SimBankOptions {
  /** Signs ACS tokens and derives references; a restart with the same secret keeps both valid. */
  secret: Sensitive<string>;
  /** kasa's public base URL; the ACS is served under it. */
  baseUrl: string;
}

export interface SimBank extends BankGateway {
  readonly acsUrl: string;
  /** The ACS page for the form the relay's auto-submit page posted to `acsUrl`. */
  renderAcsPage(fields: Readonly<Record<string, string>>, options: AcsPageOptions): PageResponse;
}

const assertPositiveInt = (name: string, value: number): void => {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`sim bank: ${name} must be a positive integer`);
};

const CAPTURABLE = new Set(["approve", "refund_pending", "refund_declined"]);

export const createSimBank = (options: SimBankOptions): SimBank => {
  const { secret } = options;
  if (secret.reveal().length < SIM_SECRET_MIN_CHARS) throw new Error("sim bank: secret too short");
  const base = toHttpUrl(options.baseUrl);
  const acsUrl = `${base.origin}${base.pathname.replace(/\/+$/, "")}${SIM_BANK_PATHS.acs}`;

  const start3d = async (input: Start3dInput): Promise<Start3dResult> => {
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

  const verifyCallback: BankGateway["verifyCallback"] = async (form, context): Promise<CallbackResult> => {
    const claim = readCallbackToken(secret, form[ACS_CALLBACK_FIELDS.token], context.nowMs);
    if (claim === null || claim.attemptId !== context.attemptId) return { ok: false };
    // The code is public test data, so a plain comparison is fine here; the token is what is secret.
    const authenticated =
      form[ACS_CALLBACK_FIELDS.action] !== "cancel" && form[ACS_CALLBACK_FIELDS.otp] === SIM_OTP && claim.profile !== "auth_fails";
    return { ok: true, authenticated, bankProfile: authenticated ? claim.profile : SIM_UNAUTHENTICATED };
  };

  const capture = async (input: CaptureInput): Promise<CaptureResult> => {
    assertPositiveInt("amount", input.amount);
    if (input.bankProfile === "insufficient_funds") return { approved: false, reason: "insufficient_funds" };
    if (!isSimProfile(input.bankProfile) || !CAPTURABLE.has(input.bankProfile)) {
      return { approved: false, reason: input.bankProfile === SIM_UNAUTHENTICATED ? "not_authenticated" : "declined" };
    }
    const bankReference = toCaptureReference(secret, input.attemptId, input.bankProfile);
    return { approved: true, authCode: toAuthCode(secret, bankReference), bankReference };
  };

  const reverse = (kind: "refund" | "void") => async (input: RefundInput) => {
    assertPositiveInt("amount", input.amount);
    const profile = toProfileOfCapture(input.bankReference);
    if (profile === null) return unknownReference();
    return toRefundResult(secret, profile, newRefundReference(kind, input.nowMs), input.nowMs);
  };

  const refundStatus = async (input: RefundStatusInput) => {
    const profile = toProfileOfCapture(input.bankReference);
    if (profile === null) return unknownReference();
    return toRefundResult(secret, profile, input.refundReference, input.nowMs);
  };

  const payout = async (input: PayoutInput): Promise<PayoutResult> => {
    if (!Number.isSafeInteger(input.amount) || input.amount < 1) return { status: "failed", reason: "invalid_amount" };
    if (!input.payoutAccount) return { status: "failed", reason: "no_payout_account" };
    return { status: "paid", bankReference: newPayoutReference() };
  };

  return {
    bank: "sim",
    acsOrigin: base.origin,
    acsUrl,
    start3d,
    verifyCallback,
    capture,
    void: reverse("void"),
    refund: reverse("refund"),
    refundStatus,
    payout,
    renderAcsPage: (fields, pageOptions) => renderAcsPage(secret, fields, pageOptions),
  };
};
