import type { Sensitive } from "../sensitive";

/**
 * What kasa needs from a bank, whatever the bank (docs/banks.md). The simulated bank (`sim/`) and the
 * EST / NestPay connector (`est/`) implement it; `registry.ts` picks one per connection.
 * Every call is async because a real one is network I/O; callers record the in-flight state before
 * calling and the result after (DESIGN "How a request flows" 3).
 *
 * Amounts are integer kuruş; time is epoch ms passed in, never read here.
 */
export interface BankGateway {
  /** Connection `bank` value this gateway serves (docs/seed.md, Partners, terminals and connections), e.g. "sim". */
  readonly bank: string;
  /** Origin the 3D form posts to (the bank's gate): the relay page allows it in CSP form-action. */
  readonly acsOrigin: string;
  /**
   * True where the bank charges the card at its own 3D gate (3D Pay models): the callback carries
   * the result, and an attempt whose callback never came (the buyer closed the window) may still
   * have been charged. kasa then asks `captureStatus` and voids an approval (docs/banks.md).
   */
  readonly chargesAtGate?: boolean;

  /** Opens the 3D step: the auto-submit form to the bank's ACS, or a card-level decline. */
  start3d(input: Start3dInput): Promise<Start3dResult>;
  /** Checks what the ACS posted back to the relay's callback URL for this attempt. */
  verifyCallback(callback: BankCallback, context: CallbackContext): Promise<CallbackResult>;
  /** Charges an authenticated attempt. kasa calls it at most once per attempt (a constraint). */
  capture(input: CaptureInput): Promise<CaptureResult>;
  /**
   * What became of a capture whose answer was lost or unknown: asks the bank (EST ORDERSTATUS),
   * never sends the charge again. `approved: null` while the bank still cannot say.
   */
  captureStatus(input: CaptureInput): Promise<CaptureResult>;
  /** Cancels a capture of the same processing day (refund method `void`, docs/contract.md, Refunds). */
  void(input: RefundInput): Promise<RefundResult>;
  /** Credits back part or all of a capture (refund method `credit`). */
  refund(input: RefundInput): Promise<RefundResult>;
  /**
   * For banks without idempotency keys (EST): what to record before a void or credit is sent, so
   * that a lost answer or a crash is resolved by `refundStatus(marker)` and never by sending again.
   * null: the bank cannot be asked now (nothing is sent; the refund stays pending).
   */
  refundMarker?(kind: "void" | "credit", input: RefundInput): Promise<string | null>;
  /** Asks again about a refund or void that answered `pending`. */
  refundStatus(input: RefundStatusInput): Promise<RefundResult>;
  /**
   * Pays a day-end payout batch to the partner's account, where the bank does that itself (the
   * simulated bank). Absent for acquiring-only banks (EST): an operator transfers and marks the
   * batch (`kasa payouts mark-paid|mark-failed`).
   */
  payout?(input: PayoutInput): Promise<PayoutResult>;
}

/** PAN, expiry and CVV stay Sensitive until the bank form is rendered (DESIGN house style 9). */
export interface CardInput {
  pan: Sensitive<string>;
  /** MM */
  expireMonth: Sensitive<string>;
  /** YY */
  expireYear: Sensitive<string>;
  cv2: Sensitive<string>;
}

export interface Start3dInput {
  /** One id per card attempt; the callback and the capture are bound to it. */
  attemptId: string;
  amount: number;
  installment: number;
  card: CardInput;
  /** Absolute URL the ACS posts its result to, e.g. `{base}/handoff/callback/{attemptId}`. */
  callbackUrl: string;
  /**
   * Origin the buyer's browser ends on after the callback's 303 (the partner's returnUrl, or kasa's
   * own origin for hosted result pages). Chromium applies CSP form-action to that redirect, so a
   * bank page under a strict CSP (the simulated ACS) must allow it (docs/checkout.md). Real banks ignore it.
   */
  returnOrigin?: string | null;
  /**
   * The buyer's address as the relay saw it (the socket peer, or behind `--trust-proxy` the entry
   * our proxy appended to X-Forwarded-For); null where there is none (in-process requests). Banks
   * that ask for the customer's IP in the 3D form take it from here.
   */
  buyerIp?: string | null;
  nowMs: number;
}

/** Field values the bank needs verbatim; card fields stay Sensitive until `autoSubmitForm`. */
export type BankFormFields = Record<string, string | Sensitive<string>>;

export type Start3dResult =
  /** Auto-submit this form (POST) to `action`; it carries card fields, as real 3D models do. */
  | { kind: "form"; action: string; fields: BankFormFields }
  /** Card-level decline before authentication: `payment_declined`, the attempt counts (7.3). */
  | { kind: "declined" }
  /**
   * A call made before the buyer leaves (an enrollment or 3D-start request) failed technically:
   * no answer, a timeout, HTTP 5xx or an unreadable answer. The bank never had the attempt, so a
   * router tries its next member (docs/routing.md); a plain terminal refuses it as a decline.
   */
  | { kind: "unavailable"; detail: string };

/** What the buyer's browser posted back from the bank: parsed, and the raw bytes (EST hashes those). */
export interface BankCallback {
  form: Readonly<Record<string, string>>;
  raw: Uint8Array;
}

export interface CallbackContext {
  /** The attempt named by the callback URL: a result signed for another attempt is refused. */
  attemptId: string;
  /** What the attempt was opened for: an echo of another amount or count is refused. */
  amount: number;
  installment: number;
  /** The attempt's card as first 6 + "******" + last 4, for a bank whose callback echoes the card (PayFlex). */
  maskedPan?: string | null;
  nowMs: number;
}

export type CallbackResult =
  /**
   * Genuine callback. `bankProfile` is opaque to kasa: pass it to `capture` unchanged. It is not card
   * data and may be kept with the attempt.
   */
  | { ok: true; authenticated: boolean; bankProfile: string }
  /** Forged, tampered, expired or for another attempt: change nothing. `reason` is for the log only. */
  | { ok: false; reason?: string };

export interface CaptureInput {
  attemptId: string;
  amount: number;
  installment: number;
  bankProfile: string;
}

export type CaptureDeclineReason = "insufficient_funds" | "not_authenticated" | "declined";

export type CaptureResult =
  /** `bankReference` is what voids, refunds and refund lookups name later; it holds no card data. */
  | { approved: true; authCode: string; bankReference: string }
  | { approved: false; reason: CaptureDeclineReason; procReturnCode?: string | null; errMsg?: string | null }
  /** The bank's answer was lost (timeout, 5xx, unreadable): ask its status, never charge again. */
  | { approved: null; detail: string };

export interface RefundInput {
  /**
   * Our refund id, sent as the bank's idempotency key: a request re-sent after a crash must be
   * recognised by the bank as the same refund, never executed twice.
   */
  idempotencyKey: string;
  /** The capture's reference. */
  bankReference: string;
  amount: number;
  nowMs: number;
}

export interface RefundStatusInput {
  /** The capture's reference. */
  bankReference: string;
  /** The refund's own reference, from the `pending` answer. */
  refundReference: string;
  nowMs: number;
}

/** The bank fields of a refund record (docs/contract.md, The refund record). */
export interface RefundResult {
  status: "approved" | "declined" | "pending";
  procReturnCode: string | null;
  authCode: string | null;
  errMsg: string | null;
  /** The refund's own reference (null only if the bank never issued one). */
  bankReference: string | null;
  /** For `pending`: when asking again is worthwhile (a hint for the timer wheel), else null. */
  nextCheckAtMs: number | null;
}

/** A `refundMarker` starts with `?`, which no bank reference does: it is kasa's note, not the bank's. */
export const isRefundMarker = (reference: string | null): boolean => reference?.startsWith("?") ?? false;

export interface PayoutInput {
  /** Our payout batch id, the bank's idempotency key (see RefundInput). */
  idempotencyKey: string;
  partnerId: string;
  amount: number;
  payoutAccount: string | null;
  nowMs: number;
}

export type PayoutFailureReason = "no_payout_account" | "invalid_amount" | "operator_marked_failed";

export type PayoutResult = { status: "paid"; bankReference: string } | { status: "failed"; reason: PayoutFailureReason };
