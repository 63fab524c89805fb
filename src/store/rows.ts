// The rows and parameters of the store's named operations (issue 18): one declaration that every
// implementation of src/store/store.ts returns and takes. Types only; the money's rows are in
// rows-money.ts.

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
  /** The health breaker's settings (docs/routing.md, Health); null: the defaults. */
  breaker: BreakerSettings | null;
};

export type BreakerSettings = { failures: number; windowSeconds: number; cooldownSeconds: number };

/** What a routing rule matches (docs/routing.md): every key given must match; none matches all. */
export type RuleWhen = {
  bins?: string[];
  brands?: string[];
  banks?: string[];
  families?: string[];
  foreign?: boolean;
  installmentsFrom?: number;
  installmentsTo?: number;
  amountFrom?: number;
  amountTo?: number;
};

export type SplitShare = { terminal: string; weight: number };

/** A rule orders candidates by `route` or by `split`, exactly one of them. */
export type RoutingRule = { name: string; when: RuleWhen; route: string[] | null; split: SplitShare[] | null };

/** A router's `routing` object as the seed checked it (docs/routing.md, The seed object). */
export type RoutingConfig = {
  members: string[];
  rules: RoutingRule[];
  fallback: string[];
  order: "rules" | "cheapest";
  onUsInstallments: boolean;
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
  /** Set on a router (docs/routing.md): its members serve its payments; null on a plain terminal. */
  routing: RoutingConfig | null;
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

/** A connection's usage with the room instances have reserved out of its limits (docs/postgresql.md). */
export type ConnectionTaken = { usage: ConnectionUsage; others: bigint; own: bigint };

/** What a reservation of room is valid for: the connection's limits as `terms`, and the app clock's now. */
export type RoomTerms = { terms: string; nowMs: number };

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

/** A link in the operator's listings. */
export type LinkSummaryRow = Pick<
  LinkRow,
  "id" | "partnerId" | "partnerReference" | "terminalId" | "status" | "amount" | "shareBps" | "description" | "expiresAtMs" | "createdAtMs"
>;

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
