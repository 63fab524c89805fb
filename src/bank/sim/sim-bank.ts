import { toHttpUrl, type PageResponse } from "../../html";
import type { Sensitive } from "../../sensitive";
import type { BankGateway, CaptureInput, CaptureResult, PayoutInput, PayoutResult, RefundResult } from "../gateway";
import { renderAcsPage, type AcsPageOptions } from "./acs-page";
import { newPayoutReference, newRefundReference, toAuthCode, toCaptureReference, toProfileOfCapture, type RefundKind } from "./references";
import { toRefundResult, unknownReference } from "./refund-results";
import { isSimProfile, type SimProfile } from "../test-cards";
import { assertPositiveInt, SIM_UNAUTHENTICATED, startSim3d, verifySimCallback } from "./three-d";

/** Where the binary serves the simulated bank (docs/checkout.md, The bank's 3D page); routes are wired elsewhere. */
export const SIM_BANK_PATHS = { acs: "/sim-bank/acs" } as const;

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
  /** The simulated bank pays its batches itself (docs/banks.md). */
  payout(input: PayoutInput): Promise<PayoutResult>;
  /** The ACS page for the form the relay's auto-submit page posted to `acsUrl`. */
  renderAcsPage(fields: Readonly<Record<string, string>>, options: AcsPageOptions): PageResponse;
}

// Only cards that can be charged reach a reference; the others have no capture to refund.
const CAPTURABLE: ReadonlySet<SimProfile> = new Set<SimProfile>(["approve", "refund_pending", "refund_declined"]);

const captureSim = (secret: Sensitive<string>, input: CaptureInput): CaptureResult => {
  assertPositiveInt("amount", input.amount);
  const profile = input.bankProfile;
  if (profile === "insufficient_funds") return { approved: false, reason: "insufficient_funds" };
  if (!isSimProfile(profile) || !CAPTURABLE.has(profile)) {
    return { approved: false, reason: profile === SIM_UNAUTHENTICATED ? "not_authenticated" : "declined" };
  }
  const bankReference = toCaptureReference(secret, input.attemptId, profile);
  return { approved: true, authCode: toAuthCode(secret, bankReference), bankReference };
};

/** Refund or void: the capture's reference says how the card behaves (refund-results.ts). */
const reverseSim = (secret: Sensitive<string>, kind: RefundKind, bankReference: string, amount: number, nowMs: number): RefundResult => {
  assertPositiveInt("amount", amount);
  const profile = toProfileOfCapture(bankReference);
  if (profile === null) return unknownReference();
  return toRefundResult(secret, profile, newRefundReference(kind, nowMs), nowMs);
};

const payoutSim = (input: PayoutInput): PayoutResult => {
  if (!Number.isSafeInteger(input.amount) || input.amount < 1) return { status: "failed", reason: "invalid_amount" };
  if (!input.payoutAccount) return { status: "failed", reason: "no_payout_account" };
  return { status: "paid", bankReference: newPayoutReference() };
};

/** The simulated bank (docs/checkout.md): stateless, so a restart with the same secret loses nothing. */
export const createSimBank = (options: SimBankOptions): SimBank => {
  const { secret } = options;
  if (secret.reveal().length < SIM_SECRET_MIN_CHARS) throw new Error("sim bank: secret too short");
  const base = toHttpUrl(options.baseUrl);
  const acsUrl = `${base.origin}${base.pathname.replace(/\/+$/, "")}${SIM_BANK_PATHS.acs}`;
  return {
    bank: "sim",
    acsOrigin: base.origin,
    acsUrl,
    start3d: (input) => startSim3d(secret, acsUrl, input),
    verifyCallback: (callback, context) => verifySimCallback(secret, callback.form, context),
    capture: async (input) => captureSim(secret, input),
    // Stateless: the same attempt and profile give the same answer, so asking is capturing again.
    captureStatus: async (input) => captureSim(secret, input),
    void: async (input) => reverseSim(secret, "void", input.bankReference, input.amount, input.nowMs),
    refund: async (input) => reverseSim(secret, "refund", input.bankReference, input.amount, input.nowMs),
    refundStatus: async (input) => {
      const profile = toProfileOfCapture(input.bankReference);
      if (profile === null) return unknownReference();
      return toRefundResult(secret, profile, input.refundReference, input.nowMs);
    },
    payout: async (input) => payoutSim(input),
    renderAcsPage: (fields, pageOptions) => renderAcsPage(secret, fields, pageOptions),
  };
};
