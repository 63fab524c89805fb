// The rows of the money (the store's named operations, money-ops.ts): payments, their card attempts
// and bank follow-ups, refunds and payout batches. Types only, like rows.ts.

export type AttemptStatus = "starting" | "declined" | "acs" | "capturing" | "captured" | "failed";

export type AttemptRow = {
  id: string;
  paymentCode: string;
  status: AttemptStatus;
  /** Whether it used up one of the payment's card attempts (docs/contract.md, Payment states). */
  counted: boolean;
  createdAtMs: number;
  updatedAtMs: number;
  /**
   * The terminal that served the attempt and the connection whose bank it went to, chosen once
   * at 3D start (domain/payments/routing.ts). Null only on rows written without them (tests'
   * store fixtures); kasa records both on every attempt, and older databases are filled in.
   */
  terminalId: string | null;
  connectionId: string | null;
  /** How a router chose the member (docs/routing.md); null for an attempt of a plain terminal. */
  route: RouteRecord | null;
};

/** Why a router's candidate did not serve an attempt (docs/routing.md, Reasons). */
export type RouteSkipReason =
  | "inactive"
  | "card_not_accepted"
  | "installments_not_offered"
  | "not_on_us"
  | "limit_reached"
  | "breaker_open"
  | "unavailable";

/** A router's decision for one attempt, as `kasa payments show --json` prints it. */
export type RouteRecord = {
  rule: string;
  order: "rules" | "cheapest";
  skipped: { terminalId: string; reason: RouteSkipReason }[];
};

export type CaptureCheckKind = "resolve" | "void";

export type CaptureCheckOutcome = "captured" | "failed" | "voided" | "void_declined";

export type CaptureCheckRow = {
  attemptId: string;
  connectionId: string;
  kind: CaptureCheckKind;
  amount: number;
  bankReference: string | null;
  tries: number;
  dueAtMs: number | null;
  outcome: CaptureCheckOutcome | null;
  updatedAtMs: number;
};

/** A payment in the operator's listings: the row without the handoff credential and bank details. */
export type PaymentSummaryRow = Pick<
  PaymentRow,
  | "code"
  | "partnerId"
  | "terminalId"
  | "partnerTxCode"
  | "channel"
  | "linkId"
  | "status"
  | "amount"
  | "installment"
  | "maskedPan"
  | "commissionAmount"
  | "netToPartner"
  | "expectedValueDate"
  | "refundedAmount"
  | "capturedAtMs"
  | "createdAtMs"
>;

export type PaymentPageFilter = {
  partnerId: string;
  status: string | null;
  fromMs: number | null;
  toMs: number | null;
  /** A paymentCode or a partnerTxCode, exactly. */
  search: string | null;
  /** Keyset cursor: rows strictly older than this (createdAtMs, code). */
  before: { atMs: number; code: string } | null;
  limit: number;
};

export type PaymentStatus = "initiated" | "captured" | "failed" | "expired" | "voided" | "refunded";

export type PaymentChannel = "api" | "panel" | "link";

export type PaymentRow = {
  code: string;
  partnerId: string;
  terminalId: string;
  connectionId: string;
  partnerTxCode: string;
  channel: PaymentChannel;
  linkId: string | null;
  status: PaymentStatus;
  amount: number;
  /** Commission base on net terminals: the link's base amount, or the amount (docs/contract.md, Payments). */
  principal: number;
  currency: string;
  installment: number;
  description: string | null;
  returnUrl: string | null;
  paymentRef: string;
  /** Set once a 3D step began on the ref; cleared only by a decline at 3D start. */
  threeDStarted: boolean;
  attemptsCounted: number;
  maskedPan: string | null;
  cardBrand: string | null;
  cardFamily: string | null;
  cardBank: string | null;
  appliedRateBps: number | null;
  appliedFixedFee: number | null;
  commissionAmount: number | null;
  netToPartner: number | null;
  expectedValueDate: string | null;
  bankReference: string | null;
  authCode: string | null;
  refundedAmount: number;
  settledDay: string | null;
  payoutBatchId: string | null;
  capturedAtMs: number | null;
  expiresAtMs: number;
  createdAtMs: number;
  updatedAtMs: number;
};

export type NewPayment = Pick<
  PaymentRow,
  | "code"
  | "partnerId"
  | "terminalId"
  | "connectionId"
  | "partnerTxCode"
  | "channel"
  | "linkId"
  | "amount"
  | "principal"
  | "currency"
  | "installment"
  | "description"
  | "returnUrl"
  | "paymentRef"
  | "expiresAtMs"
  | "createdAtMs"
>;

/** What 3D start fixes on the payment (docs/contract.md, Payments): card facts from the BIN, and the rate. */
export type CardFacts = {
  maskedPan: string;
  cardBrand: string | null;
  cardFamily: string | null;
  cardBank: string | null;
  appliedRateBps: number;
  appliedFixedFee: number | null;
};

/** What capture records (docs/contract.md, Payments). */
export type CaptureFacts = {
  commissionAmount: number;
  netToPartner: number;
  expectedValueDate: string;
  bankReference: string;
  authCode: string;
};

export type RefundMethod = "void" | "credit";

export type RefundStatus = "pending" | "approved" | "declined";

export type RefundRow = {
  id: string;
  paymentCode: string;
  partnerId: string;
  partnerRefundCode: string;
  method: RefundMethod;
  status: RefundStatus;
  amount: number;
  procReturnCode: string | null;
  authCode: string | null;
  errMsg: string | null;
  /** The refund's own bank reference; null while the bank has not answered (or never issued one). */
  bankReference: string | null;
  /** The payout batch that deducted this credit refund (docs/contract.md, Refunds). */
  payoutBatchId: string | null;
  createdAtMs: number;
  updatedAtMs: number;
};

export type NewRefund = Pick<RefundRow, "id" | "paymentCode" | "partnerId" | "partnerRefundCode" | "method" | "amount" | "createdAtMs">;

/** What the bank said about a refund that is final (docs/contract.md#the-refund-record bank fields). */
export type RefundOutcome = {
  procReturnCode: string | null;
  authCode: string | null;
  errMsg: string | null;
  bankReference: string | null;
};

/** The amounts that decide what is left to refund (docs/contract.md, Refunds). */
export type RefundTotals = { approved: number; pending: number; count: number; approvedCredits: number };

export type PayoutStatus = "pending" | "paid_out" | "failed";

export type PayoutBatchRow = {
  id: string;
  partnerId: string;
  /** The Istanbul date the day end ran on (00:00): the value date it pays up to. */
  day: string;
  amount: number;
  status: PayoutStatus;
  createdAtMs: number;
  updatedAtMs: number;
  /** The transfer's reference once paid (the simulated bank's, or the operator's), else null. */
  reference: string | null;
};

/**
 * What one partner is owed at a day end: settled captures due minus credit refunds not yet netted.
 * Exact (docs/decisions.md, Hardening): SQLite sums the integers and hands them over as decimal text, read as BigInt.
 */
export type PartnerDue = { captures: bigint; refunds: bigint };

/** Tests (FixturesOps.patchPayment): the payment columns a test may overwrite directly. */
export type PaymentPatch = Partial<
  Pick<PaymentRow, "status" | "netToPartner" | "refundedAmount" | "terminalId" | "connectionId" | "settledDay" | "payoutBatchId">
>;

/** Tests (FixturesOps.patchRefund): the refund columns a test may overwrite directly. */
export type RefundPatch = Partial<Pick<RefundRow, "paymentCode" | "amount">>;
