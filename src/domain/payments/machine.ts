import type { AttemptStatus, PaymentStatus } from "../../store/rows-money";

// docs/contract.md#payment-states and docs/contract.md#payments as data. Every status change of a payment or a card attempt goes
// through these tables: the store's conditional updates take their `from` lists from here.

export type { AttemptStatus, PaymentStatus };

export const PAYMENT_STATUSES = [
  "initiated",
  "captured",
  "failed",
  "expired",
  "voided",
  "refunded",
] as const satisfies readonly PaymentStatus[];

/**
 * docs/contract.md, Payments: the states that hold a `partnerTxCode`, which are also the "active" payments that
 * `GET /v1/payments?partnerTxCode=` resolves (docs/contract.md, Read a payment). `failed` and `expired` free the code.
 */
export const HOLDING_STATUSES = ["initiated", "captured", "voided", "refunded"] as const satisfies readonly PaymentStatus[];

export const isHoldingStatus = (status: PaymentStatus): boolean => (HOLDING_STATUSES as readonly PaymentStatus[]).includes(status);

/** Where a card attempt can run, be counted or be declined: the payment stays in it (3.2 rows 5-8). */
export const ATTEMPTABLE_STATUSES = ["initiated"] as const satisfies readonly PaymentStatus[];

type PaymentTransition = { from: readonly PaymentStatus[]; to: PaymentStatus };

/** docs/contract.md, Payment states, row by row (the rows that keep the payment `initiated` change no status). */
export const PAYMENT_TRANSITIONS = {
  /** (none) -> initiated: `POST /v1/payments`, valid, new partnerTxCode. */
  create: { from: [], to: "initiated" },
  /** initiated -> captured: capture approved (webhook payment.captured). */
  capture: { from: ["initiated"], to: "captured" },
  /** initiated -> failed: 3D or capture rejected (webhook payment.failed). */
  fail: { from: ["initiated"], to: "failed" },
  /** initiated -> failed: card attempt allowance exhausted (card_attempt_limit_exceeded). */
  exhaust: { from: ["initiated"], to: "failed" },
  /** initiated -> expired: 3D window elapsed or 3D abandoned (webhook payment.expired). */
  expire: { from: ["initiated"], to: "expired" },
} as const satisfies Record<string, PaymentTransition>;

type AttemptTransition = { from: readonly AttemptStatus[]; to: AttemptStatus };

/**
 * One card attempt, recorded before the bank is called (crash safety, DESIGN request flow 3):
 * starting -> acs (the bank's form went out) or declined (payment_declined at 3D start);
 * acs -> capturing (genuine, authenticated callback; closes the attempt to replays) or failed;
 * capturing -> captured or failed. Window expiry abandons what is still starting or at the ACS.
 */
export const ATTEMPT_TRANSITIONS = {
  toAcs: { from: ["starting"], to: "acs" },
  decline: { from: ["starting"], to: "declined" },
  authenticate: { from: ["acs"], to: "capturing" },
  rejectAuthentication: { from: ["acs"], to: "failed" },
  capture: { from: ["capturing"], to: "captured" },
  rejectCapture: { from: ["capturing"], to: "failed" },
  // A `capturing` attempt is never abandoned: the bank may have charged it, so its capture check
  // (capture-checks.ts) asks and captures or voids it (issue 16).
  abandon: { from: ["starting", "acs"], to: "failed" },
  // A router's attempt whose remaining members all failed before the buyer left (docs/routing.md):
  // no bank ever had it, so it ends without counting.
  unreachable: { from: ["starting"], to: "failed" },
} as const satisfies Record<string, AttemptTransition>;
