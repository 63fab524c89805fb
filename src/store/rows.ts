// The rows and parameters of the store's named operations (issue 18): one declaration that every
// implementation of src/store/store.ts returns and takes. Types only.

export type HoldRow = { partnerId: string; reason: "admin_hold"; sinceMs: number };

export type AgreementRow = {
  partnerId: string;
  agreementCode: string;
  version: string;
  agreementName: string;
  requirement: "consent" | "wet_signature";
  kind: "first" | "renewal";
  deadlineAtMs: number | null;
  acceptedAtMs: number | null;
  createdAtMs: number;
};

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

export type PspRow = { id: string; active: boolean };

export type ConnectionRow = {
  id: string;
  pspId: string;
  bank: string;
  active: boolean;
  acceptsForeignCards: boolean;
  acceptsDebit: boolean;
  perTxMax: number | null;
  dailyMax: number | null;
  weeklyMax: number | null;
  monthlyMax: number | null;
  windowMinutes: number | null;
  windowMax: number | null;
  /** JSON settings of a non-sim bank (docs/banks.md), parsed and checked by the bank's adapter. */
  bankConfig: string | null;
};

export type StoredRate = { count: number; brand: string | null; onUs: boolean | null; rateBps: number; fixedFee: number | null };

export type TerminalRow = {
  id: string;
  partnerId: string;
  connectionId: string;
  active: boolean;
  commissionBasis: "gross" | "net";
  installments: number[];
  rates: StoredRate[];
  infrastructure: "standard" | "extended";
  directCollection: boolean;
  valueDays: number;
  valueDaysByCount: Record<string, number> | null;
  bank: string | null;
  allowedCardFamilies: string[] | null;
};

export type BinRow = {
  bin: string;
  brand: string | null;
  family: "credit" | "debit" | "prepaid" | "foreign";
  bank: string | null;
  installments: boolean;
};

/** Instants bounding each limit window of docs/seed.md, Partners, terminals and connections; the rolling window starts after `windowAfterMs`. */
export type UsageWindows = { dayFromMs: number; weekFromMs: number; monthFromMs: number; windowAfterMs: number };

export type ConnectionUsage = { day: bigint; week: bigint; month: bigint; window: bigint };

export type LinkStatus = "pending" | "launched" | "initiated" | "completed" | "expired" | "failed" | "cancelled";

/** docs/contract.md#items-and-payername display item; `note` is null when it was not sent. */
export type LinkItem = { name: string; note: string | null; amount: number };

export type LinkRow = {
  id: string;
  partnerId: string;
  token: string;
  partnerReference: number;
  terminalId: string;
  status: LinkStatus;
  amount: number;
  shareBps: number;
  description: string | null;
  redirectUrl: string | null;
  /** Sorted and de-duplicated; null = no restriction. */
  allowedCounts: number[] | null;
  items: LinkItem[] | null;
  payerName: string | null;
  /** n of the last `PL-<id>-<n>` payment made through the link (docs/contract.md, Payments). */
  attemptSeq: number;
  firstOpenedAtMs: number | null;
  lastOpenedAtMs: number | null;
  expiresAtMs: number;
  createdAtMs: number;
  updatedAtMs: number;
};

/** docs/contract.md#list-links filters, already validated and clamped; `offset`/`limit` from page and size. */
export type LinkListFilter = {
  partnerId: string;
  statuses: readonly LinkStatus[] | null;
  minAmount: number | null;
  maxAmount: number | null;
  createdFromMs: number | null;
  createdToMs: number | null;
  limit: number;
  offset: number;
};

/** A listing filter; `null` means "any". `limit` is already validated by the caller. */
export type OperatorFilter = { partnerId: string | null; status: string | null; limit: number };

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

/** A link in the operator's listings. */
export type LinkSummaryRow = Pick<
  LinkRow,
  "id" | "partnerId" | "partnerReference" | "terminalId" | "status" | "amount" | "shareBps" | "description" | "expiresAtMs" | "createdAtMs"
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

export type PartnerStatus = "active" | "suspended" | "closed";

export type PartnerRow = {
  id: string;
  name: string;
  status: PartnerStatus;
  allowedRedirectHosts: string[] | null;
  amountMin: number | null;
  amountMax: number | null;
  cardAttemptLimit: number;
  installmentCap: number | null;
  webhookUrl: string | null;
  webhookSecret: string | null;
  rateLimitMultiplier: number;
  payoutAccount: string | null;
  createdAtMs: number;
};

export type ApiKeyRow = {
  id: string;
  partnerId: string;
  keyHash: string;
  keyHint: string;
  createdAtMs: number;
  revokedAtMs: number | null;
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

export type PanelRole = "viewer" | "staff" | "admin";

export type PanelUserRow = {
  id: string;
  partnerId: string;
  email: string;
  role: PanelRole;
  passwordHash: string;
  status: "active" | "disabled";
  failedLogins: number;
  lockedUntilMs: number | null;
  createdAtMs: number;
  updatedAtMs: number;
};

export type PanelSessionRow = { idHash: string; userId: string; csrfToken: string; createdAtMs: number; lastSeenAtMs: number };

/** A panel password check that did not succeed (or is running): the address typed, the source, when. */
export type LoginFailureRow = { seq: number; ip: string; atMs: number };

export type AuditRow = {
  seq?: number;
  partnerId: string;
  atMs: number;
  userId: string | null;
  email: string;
  action: string;
  target: string | null;
  outcome: string;
  ip: string;
};

export type TailDelivery = { id: string; partnerId: string; type: string; createdAtMs: number };

export type TailAttempt = {
  deliveryId: string;
  partnerId: string;
  type: string;
  n: number;
  startedAtMs: number;
  outcome: string;
  httpStatus: number | null;
  latencyMs: number | null;
  error: string | null;
};

export type DeliveryStatus = "pending" | "delivered" | "failed" | "dropped";

export type AttemptOutcome = "delivered" | "permanent" | "retry";

/**
 * One outbox row. `pending` with `nextAttemptAtMs` null means an attempt is in flight (claimed,
 * not yet recorded). `attempts` and `firstAttemptAtMs` belong to the current delivery cycle (the
 * retry schedule and the 24 h window count from them); an operator's resend starts a new cycle,
 * while the attempt rows keep their numbering across cycles.
 */
export type DeliveryRow = {
  id: string;
  partnerId: string;
  type: string;
  body: string;
  occurredAtMs: number;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAtMs: number | null;
  firstAttemptAtMs: number | null;
  createdAtMs: number;
  updatedAtMs: number;
};

/** A delivery as listed: the row plus how many attempts were recorded over all cycles. */
export type DeliveryListRow = DeliveryRow & { attemptCount: number };

export type WebhookAttemptRow = {
  deliveryId: string;
  n: number;
  startedAtMs: number;
  httpStatus: number | null;
  latencyMs: number | null;
  outcome: AttemptOutcome;
  error: string | null;
};

export type DeliveryFilter = { partnerId: string | null; status: DeliveryStatus | null; limit: number };

/** A timer to rebuild at start: a waiting delivery by its due time, an in-flight one by its claim time. */
export type DeliveryTimerRow = { id: string; atMs: number };

/** Tests (FixturesOps.patchPayment): the payment columns a test may overwrite directly. */
export type PaymentPatch = Partial<
  Pick<PaymentRow, "status" | "netToPartner" | "refundedAmount" | "terminalId" | "connectionId" | "settledDay" | "payoutBatchId">
>;

/** Tests (FixturesOps.patchRefund): the refund columns a test may overwrite directly. */
export type RefundPatch = Partial<Pick<RefundRow, "paymentCode" | "amount">>;
