import type { Log } from "../log-port";
import type { Sensitive } from "../sensitive";
import type {
  AgreementRow,
  ApiKeyRow,
  AttemptRow,
  AttemptStatus,
  AuditRow,
  LoginFailureRow,
  BinRow,
  CaptureCheckOutcome,
  CaptureCheckRow,
  CaptureFacts,
  CardFacts,
  ConnectionRow,
  ConnectionUsage,
  DeliveryFilter,
  DeliveryListRow,
  DeliveryRow,
  DeliveryTimerRow,
  HoldRow,
  LinkListFilter,
  LinkRow,
  LinkStatus,
  LinkSummaryRow,
  NewPayment,
  NewRefund,
  OperatorFilter,
  PanelSessionRow,
  PanelUserRow,
  PartnerDue,
  PartnerRow,
  PaymentPageFilter,
  PaymentPatch,
  PaymentRow,
  PaymentStatus,
  PaymentSummaryRow,
  PayoutBatchRow,
  PayoutStatus,
  PspRow,
  RefundOutcome,
  RefundPatch,
  RefundRow,
  RefundStatus,
  RefundTotals,
  TailAttempt,
  TailDelivery,
  TerminalRow,
  UsageWindows,
  WebhookAttemptRow,
} from "./rows";
import type { SecretBox } from "./secret-box";

// The store interface (issue 18): what the domain, the HTTP layer and the CLI may ask of a
// database, declared once. `src/store/sqlite/` is its implementation today (group commit on one
// SQLite file); a PostgreSQL implementation (docs/postgresql.md) implements the same declarations, so a
// feature is written once. Nothing outside src/store/ writes SQL or imports a driver.
//
// Every operation is asynchronous because a PostgreSQL driver is: on SQLite each one settles at
// once, which is what lets a batch of units run from BEGIN to COMMIT without yielding.

/**
 * A unit of work: it awaits only its own repo calls (never a timer, a fetch or a bank call: on
 * SQLite the store fails a unit that does, see sqlite/unit-scope.ts), and either all its writes
 * commit or none do.
 */
export type Unit<T> = (tx: Repos) => Promise<T>;

export interface Store {
  /**
   * Reads outside units of work. They only ever see committed rows. (Calling a write operation
   * here would commit it on its own: writes go through `write`.)
   */
  readonly q: Repos;
  /**
   * Whether other kasa instances may write to this database at the same time (docs/postgresql.md:
   * PostgreSQL). Their timers then also poll it for due rows they did not schedule themselves.
   */
  readonly shared: boolean;
  /**
   * Runs one unit of work and resolves after its COMMIT is durable. On SQLite (DESIGN.md request
   * flow 4): every unit queued in one event-loop turn runs in ONE `BEGIN IMMEDIATE` transaction,
   * one after another, each in its own SAVEPOINT (a unit that throws rolls back and rejects
   * alone); promises settle only after COMMIT with synchronous=FULL.
   */
  write<T>(unit: Unit<T>): Promise<T>;
  /** `kasa rotate-master-key`: every secret re-sealed under `next` (null: back to clear); how many. Reopen after. */
  rotateMasterKey(next: Buffer | null): Promise<number>;
  readonly stats: { batches: number; units: number };
  /** docs/operating.md metrics: told each commit's size (units) and how long it took (ms). */
  observeBatches(observer: (units: number, ms: number) => void): void;
  /** Lets every queued unit commit, then closes the connection. */
  close(): Promise<void>;
}

export type OpenOptions = {
  /** SQLite: the driver (default: the running runtime's). */
  driver?: "bun" | "node";
  /** docs/operating.md: seals webhook secrets and bank settings at rest (AES-256-GCM); null keeps them in clear. */
  masterKey?: Buffer | null;
  /** PostgreSQL: the password when the URL has none (`--db-password-file`); else $PGPASSWORD. */
  pgPassword?: Sensitive<string> | null;
  /** Where a unit that broke the rules of a unit is reported. */
  log?: Log;
};

/** Every named operation, grouped by resource. A unit of work receives this as `tx`. */
export interface Repos {
  meta: MetaOps;
  secrets: SecretsOps;
  partners: PartnersOps;
  apiKeys: ApiKeysOps;
  catalog: CatalogOps;
  acceptance: AcceptanceOps;
  webhooks: WebhooksOps;
  webhookTail: WebhookTailOps;
  links: LinksOps;
  linkCheckout: LinkCheckoutOps;
  payments: PaymentsOps;
  attempts: AttemptsOps;
  bank: BankOps;
  operator: OperatorOps;
  refunds: RefundsOps;
  settlement: SettlementOps;
  panelUsers: PanelUsersOps;
  panelSessions: PanelSessionsOps;
  panelAudit: PanelAuditOps;
  loginFailures: LoginFailuresOps;
  panel: PanelOps;
  metrics: MetricsOps;
  fixtures: FixturesOps;
}

export interface MetaOps {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  /** Inserts only when absent; answers the value that is now stored. */
  setOnce(key: string, value: string): Promise<string>;
  /**
   * docs/postgresql.md rate-limit shares: renews this instance's heartbeat until `untilMs` (an instant at
   * or before `nowMs` takes it out), forgets every heartbeat that ran out by `nowMs`, and answers
   * the live instances' ids in byte order. Wall-clock instants, never the sandbox clock.
   */
  heartbeat(instanceId: string, untilMs: number, nowMs: number): Promise<string[]>;
}

export interface SecretsOps {
  /** The id of the master key the database's secrets are sealed with; null while they are in clear. */
  sealedBy(): Promise<string | null>;
  /**
   * Every secret opened with `from` and sealed with `to` (in clear when `to` has no key), and the
   * key recorded; the caller runs it in one transaction. Answers how many values it rewrote.
   */
  reseal(from: SecretBox, to: SecretBox): Promise<number>;
  /**
   * A bank's own signing secret (meta `<bank>.secret`), made once per database from `fresh` and
   * sealed at rest like every other secret; answers the secret in clear.
   */
  bankSecret(bank: string, fresh: string): Promise<string>;
}

export interface PartnersOps {
  get(id: string): Promise<PartnerRow | undefined>;
  list(): Promise<PartnerRow[]>;
  upsert(p: PartnerRow): Promise<void>;
  /** Issues the next partnerReference of the partner's links (docs/contract.md, The link record). */
  nextLinkReference(partnerId: string): Promise<number>;
}

export interface ApiKeysOps {
  byHash(keyHash: string): Promise<ApiKeyRow | undefined>;
  get(id: string): Promise<ApiKeyRow | undefined>;
  list(partnerId: string | null): Promise<ApiKeyRow[]>;
  /** Idempotent: registering the same key again (same hash) changes nothing. */
  insert(k: ApiKeyRow): Promise<boolean>;
  revoke(id: string, atMs: number): Promise<boolean>;
}

export interface CatalogOps {
  psp(id: string): Promise<PspRow | undefined>;
  connection(id: string): Promise<ConnectionRow | undefined>;
  terminal(id: string): Promise<TerminalRow | undefined>;
  upsertPsp(p: PspRow): Promise<void>;
  connections(): Promise<ConnectionRow[]>;
  upsertConnection(c: Omit<ConnectionRow, "bankConfig"> & { bankConfig?: string | null }): Promise<void>;
  terminals(partnerId: string | null): Promise<TerminalRow[]>;
  upsertTerminal(t: TerminalRow): Promise<void>;
  bin(bin: string): Promise<BinRow | undefined>;
  /**
   * Locks the connection's row until the unit ends, so units checking its limit totals (docs/seed.md, Partners, terminals and connections)
   * against a new charge run one at a time (docs/postgresql.md: PostgreSQL's SELECT … FOR UPDATE; SQLite's
   * single writer already runs units one at a time, so there it does nothing). Taken before the
   * unit writes any payment: the totals' rows are locked by those writes, after this one.
   */
  lockConnection(id: string): Promise<void>;
  binCount(): Promise<number>;
  upsertBin(r: BinRow): Promise<void>;
}

export interface AcceptanceOps {
  /**
   * The hot-path guard (every new payment and link): is any hold effective now? An admin hold
   * always is; agreements_pending is once an unaccepted agreement's deadline has come (the
   * earliest deadline <= now). One indexed EXISTS, about 20x cheaper than reading both lists.
   */
  blocksPayments(partnerId: string, nowMs: number): Promise<boolean>;
  holds(partnerId: string): Promise<HoldRow[]>;
  /** Setting a hold that is already set keeps its original `since`. */
  setHold(h: HoldRow): Promise<boolean>;
  clearHold(partnerId: string, reason: string): Promise<boolean>;
  agreements(partnerId: string): Promise<AgreementRow[]>;
  agreement(partnerId: string, code: string, version: string): Promise<AgreementRow | undefined>;
  upsertAgreement(a: AgreementRow): Promise<void>;
  accept(partnerId: string, code: string, atMs: number): Promise<number>;
}

export interface WebhooksOps {
  /** The outbox row, written in the same unit of work as the state change it reports (docs/contract.md, Webhooks). */
  insert(d: Pick<DeliveryRow, "id" | "partnerId" | "type" | "body" | "occurredAtMs">): Promise<void>;
  get(id: string): Promise<DeliveryRow | undefined>;
  /** Newest first (by creation, then id), optionally one partner and/or one status. */
  list(f: DeliveryFilter): Promise<DeliveryListRow[]>;
  attempts(deliveryId: string): Promise<WebhookAttemptRow[]>;
  /** Waiting deliveries in due order after (atMs, id), one page at a time (start-up rebuild). */
  waitingPage(afterAtMs: number, afterId: string, limit: number): Promise<DeliveryTimerRow[]>;
  /** Deliveries whose attempt was claimed but never recorded, after `afterId` (start-up rebuild). */
  inFlightPage(afterId: string, limit: number): Promise<DeliveryTimerRow[]>;
  /** Waiting deliveries already due; the sweep hands them to the wheel (rows queued by another process). */
  due(nowMs: number, limit: number): Promise<DeliveryTimerRow[]>;
  /** Takes a waiting delivery for one attempt: counts it, opens the window, marks it in flight. */
  claim(id: string, expectedNextAtMs: number, nowMs: number): Promise<boolean>;
  /**
   * Takes over an attempt left in flight by a stopped process. The attempt is the same one (it was
   * never recorded), so the count stays; `updated_at_ms` is the compare-and-set token.
   */
  claimOrphan(id: string, expectedUpdatedAtMs: number, nowMs: number): Promise<boolean>;
  /** An attempt picked up after the 24 h window is dropped without being sent. */
  dropUnsent(id: string, expectedNextAtMs: number | null, nowMs: number): Promise<boolean>;
  /** Numbers the attempt after every earlier one of the delivery (all cycles) and stores it. */
  insertAttempt(a: Omit<WebhookAttemptRow, "n">): Promise<number>;
  /** The attempt in flight ended the delivery. */
  settle(id: string, status: "delivered" | "failed" | "dropped", nowMs: number): Promise<boolean>;
  /** The attempt in flight failed retryably: wait for the next one. */
  reschedule(id: string, nextAtMs: number, nowMs: number): Promise<boolean>;
  /** Operator resend: a settled delivery starts a new cycle, due now. */
  requeue(id: string, nowMs: number): Promise<boolean>;
}

export interface WebhookTailOps {
  /** The newest delivery and attempt instants already there: where a tail starting now begins. */
  tailStart(): Promise<{ deliveryMs: number; attemptMs: number }>;
  /** Deliveries after (atMs, key) in (created_at_ms, id) order: a page of a keyset walk. */
  deliveriesAfter(atMs: number, key: string, partnerId: string | null, limit: number): Promise<TailDelivery[]>;
  /** Attempts after (atMs, key) in (started_at_ms, delivery_id || '#' || n) order. */
  attemptsAfter(atMs: number, key: string, partnerId: string | null, limit: number): Promise<(TailAttempt & { tailKey: string })[]>;
}

export interface LinksOps {
  get(id: string): Promise<LinkRow | undefined>;
  /**
   * Locks the row until the unit ends, so a unit that checks several rows against it runs alone
   * (docs/postgresql.md: PostgreSQL's SELECT … FOR UPDATE; SQLite's single writer already runs units one
   * at a time, so there it does nothing). Taken first in the unit, before any write.
   * A link's attempts and payments are checked under it.
   */
  lock(id: string): Promise<void>;
  /** The caller's link only; another partner's id reads as absent (docs/contract.md, Read and cancel a link). */
  getOwned(partnerId: string, id: string): Promise<LinkRow | undefined>;
  byToken(token: string): Promise<LinkRow | undefined>;
  insert(l: LinkRow): Promise<void>;
  /** docs/contract.md, List links: newest first, `partnerReference` breaking ties (docs/decisions.md, Readings of the contract). */
  list(f: LinkListFilter): Promise<LinkRow[]>;
  /** Every open link and its expiry: the timer wheel's source at start (index links_open_by_expiry). */
  openExpiries(): Promise<{ id: string; expiresAtMs: number }[]>;
  /** docs/postgresql.md's poll: the first `limit` open links whose expiry came by `nowMs`, earliest first. */
  dueExpiries(nowMs: number, limit: number): Promise<{ id: string; expiresAtMs: number }[]>;
  /**
   * Open links of a partner whose expiry has come (now >= expiresAt), at most `limit`. Normally
   * none are (the wheel keeps up), so the probe must cost one index seek: the partial expiry
   * index is named, else SQLite would walk the partner's whole index.
   */
  dueForExpiry(partnerId: string, nowMs: number, limit: number): Promise<string[]>;
  /** pending -> launched: the first open also stamps both open times (docs/checkout.md, Payment link pages). */
  markLaunched(id: string, from: readonly LinkStatus[], atMs: number): Promise<boolean>;
  /** A later open changes no state, only `lastOpenedAt` (docs/checkout.md, Payment link pages). */
  touchOpened(id: string, from: readonly LinkStatus[], atMs: number): Promise<boolean>;
  markInitiated(id: string, from: readonly LinkStatus[], atMs: number): Promise<boolean>;
  markFailed(id: string, from: readonly LinkStatus[], atMs: number): Promise<boolean>;
  markCompleted(id: string, from: readonly LinkStatus[], atMs: number): Promise<boolean>;
  markExpired(id: string, from: readonly LinkStatus[], atMs: number): Promise<boolean>;
  markCancelled(id: string, from: readonly LinkStatus[], atMs: number): Promise<boolean>;
  /** Issues n for the next `PL-<id>-<n>` payment of the link (docs/contract.md, Payments). */
  nextAttemptSeq(id: string): Promise<number>;
}

export interface LinkCheckoutOps {
  /** Codes of the link's payments still `initiated`, oldest first: attempts that may yet run or resolve. */
  initiatedCodes(linkId: string): Promise<string[]>;
  /** Codes of all the link's payments in the order they were made (same instant: by their `PL-{id}-{n}` code). */
  paymentCodes(linkId: string): Promise<string[]>;
  /** The code of the link's newest payment, or null (docs/contract.md, The sandbox: what a simulated buyer just paid). */
  latestCode(linkId: string): Promise<string | null>;
  /** Card attempts recorded on all the link's payments, whatever became of them (docs/decisions.md, Hardening). */
  cardAttempts(linkId: string): Promise<number>;
}

export interface PaymentsOps {
  /** 3D start (docs/contract.md, Payments): fixes card facts and rate, and uses up the ref until a decline frees it. */
  markThreeDStarted(code: string, from: readonly PaymentStatus[], c: CardFacts, atMs: number): Promise<boolean>;
  /** A decline at 3D start: the ref is usable again and the attempt counts (docs/contract.md, Payment states). */
  releaseThreeD(code: string, from: readonly PaymentStatus[], atMs: number): Promise<boolean>;
  /** A counted refusal before the bank was asked (card type, installment eligibility). */
  countAttempt(code: string, from: readonly PaymentStatus[], atMs: number): Promise<boolean>;
  markCaptured(code: string, from: readonly PaymentStatus[], c: CaptureFacts, atMs: number): Promise<boolean>;
  markFailed(code: string, from: readonly PaymentStatus[], atMs: number): Promise<boolean>;
  /** Only once the window has passed at `nowMs` (docs/decisions.md, Readings of the contract: now >= expiresAt); stamped `atMs`. */
  markExpired(code: string, from: readonly PaymentStatus[], nowMs: number, atMs: number): Promise<boolean>;
  /** Every initiated payment and its window end: the timer wheel's source at start. */
  initiatedExpiries(): Promise<{ code: string; expiresAtMs: number }[]>;
  /** docs/postgresql.md's poll: the first `limit` initiated payments whose window ended by `nowMs`, earliest first. */
  dueExpiries(nowMs: number, limit: number): Promise<{ code: string; expiresAtMs: number }[]>;
  /** docs/seed.md#partners-terminals-and-connections usage of a connection, by window, leaving out `exceptCode` (the payment being checked). */
  connectionUsage(connectionId: string, w: UsageWindows, exceptCode: string | null): Promise<ConnectionUsage>;
  /** The same answer summed from the payments themselves, exactly: O(payments in the month). */
  connectionUsageByScan(connectionId: string, w: UsageWindows, exceptCode: string | null): Promise<ConnectionUsage>;
  /** Recomputes every total from the payments (a database made before the totals existed). */
  rebuildConnectionUsage(): Promise<void>;
  get(code: string): Promise<PaymentRow | undefined>;
  /**
   * Locks the row until the unit ends, so a unit that checks several rows against it runs alone
   * (docs/postgresql.md: PostgreSQL's SELECT … FOR UPDATE; SQLite's single writer already runs units one
   * at a time, so there it does nothing). Taken first in the unit, before any write.
   * A payment's refunds and 3D starts are checked under it.
   */
  lock(code: string): Promise<void>;
  /** The caller's payment only; another partner's code reads as absent (docs/contract.md, Read a payment). */
  getOwned(partnerId: string, code: string): Promise<PaymentRow | undefined>;
  byRef(paymentRef: string): Promise<PaymentRow | undefined>;
  /** The one payment holding the code (docs/contract.md, Create a payment / Read a payment); the partial unique index makes it one. */
  holdingTxCode(partnerId: string, partnerTxCode: string): Promise<PaymentRow | undefined>;
  /** Inserts an `initiated` payment and answers its row as stored (the column defaults below). */
  insert(p: NewPayment): Promise<PaymentRow>;
}

/** An attempt as recorded: its route (terminal, connection) comes with it, chosen before the row exists. */
export type NewAttempt = Pick<AttemptRow, "id" | "status" | "createdAtMs" | "paymentCode" | "counted" | "terminalId" | "connectionId">;

export interface AttemptsOps {
  get(id: string): Promise<AttemptRow | undefined>;
  /**
   * Locks the row until the unit ends, so a unit that checks several rows against it runs alone
   * (docs/postgresql.md: PostgreSQL's SELECT … FOR UPDATE; SQLite's single writer already runs units one
   * at a time, so there it does nothing). Taken first in the unit, before any write.
   * A bank callback closes its attempt under it (one Auth, however many callbacks race).
   */
  lock(id: string): Promise<void>;
  byPayment(paymentCode: string): Promise<AttemptRow[]>;
  insert(a: NewAttempt): Promise<void>;
  /** One conditional move; `counted` true also marks the attempt as counted. */
  move(id: string, from: readonly AttemptStatus[], to: AttemptStatus, atMs: number, counted?: boolean): Promise<boolean>;
  /** Closes every attempt of the payment still in `from` (window expiry); answers how many. */
  closeOpen(paymentCode: string, from: readonly AttemptStatus[], to: AttemptStatus, atMs: number): Promise<number>;
}

export interface BankOps {
  /** The constraint behind "one Auth per attempt, ever": false when one was claimed before. */
  claimAuth(attemptId: string, atMs: number): Promise<boolean>;
  authClaimed(attemptId: string): Promise<boolean>;
  check(attemptId: string): Promise<CaptureCheckRow | undefined>;
  /** Opens (or re-aims) the follow-up of an attempt: due at `dueAtMs`, tries counted from 0. */
  openCheck(
    c: Pick<CaptureCheckRow, "connectionId" | "amount" | "attemptId" | "kind" | "bankReference" | "dueAtMs">,
    atMs: number,
  ): Promise<void>;
  /** One more try that left it open: due again at `dueAtMs`. */
  retryCheck(attemptId: string, dueAtMs: number, atMs: number): Promise<boolean>;
  /** Closes the follow-up with its outcome; false when it was closed already. */
  finishCheck(attemptId: string, outcome: CaptureCheckOutcome, atMs: number): Promise<boolean>;
  openChecks(): Promise<CaptureCheckRow[]>;
}

export interface OperatorOps {
  /** Newest first; the code breaks ties (it is time-ordered, docs/contract.md, Identifiers and formats). */
  payments(f: OperatorFilter): Promise<PaymentSummaryRow[]>;
  paymentsOfLink(linkId: string): Promise<PaymentSummaryRow[]>;
  paymentsOfBatch(batchId: string): Promise<PaymentSummaryRow[]>;
  /** docs/contract.md#list-links's order (docs/decisions.md, Readings of the contract), across partners; the id makes it total. */
  links(f: OperatorFilter): Promise<LinkSummaryRow[]>;
  refund(id: string): Promise<RefundRow | undefined>;
  refundsOfPayment(code: string): Promise<RefundRow[]>;
  refundsOfBatch(batchId: string): Promise<RefundRow[]>;
  /** Latest day first. */
  payoutBatches(f: OperatorFilter): Promise<PayoutBatchRow[]>;
  payoutBatch(id: string): Promise<PayoutBatchRow | undefined>;
}

export interface RefundsOps {
  get(id: string): Promise<RefundRow | undefined>;
  byPartnerCode(partnerId: string, partnerRefundCode: string): Promise<RefundRow | undefined>;
  /** docs/contract.md#the-payment-record `refunds`: oldest first (bounded by REFUNDS_PER_PAYMENT_MAX at creation). */
  ofPayment(paymentCode: string): Promise<RefundRow[]>;
  totals(paymentCode: string): Promise<RefundTotals>;
  /** The refund that reserves part of the payment while the bank is asked (one per payment, by index). */
  insertPending(r: NewRefund): Promise<void>;
  /** The bank answered `pending`: keep its reference so the status can be asked later. */
  notePendingAtBank(id: string, bankReference: string, atMs: number): Promise<boolean>;
  /** pending -> approved | declined with the bank's fields; `true` when it moved. */
  finish(id: string, from: readonly RefundStatus[], to: RefundStatus, o: RefundOutcome, atMs: number): Promise<boolean>;
  /** Every refund still waiting for the bank (restart recovery), oldest first. */
  allPending(): Promise<{ id: string; updatedAtMs: number }[]>;
  /**
   * An approved refund lands on its payment: `refunded_amount` grows by `amount`, never past the
   * amount, and the status moves to `whenDone` once nothing is left. `unsettledOnly` guards voids:
   * a payment a day end settled can no longer be voided (docs/contract.md, Refunds).
   */
  applyToPayment(
    code: string,
    from: readonly PaymentStatus[],
    amount: number,
    whenDone: PaymentStatus,
    unsettledOnly: boolean,
    atMs: number,
  ): Promise<boolean>;
}

export interface SettlementOps {
  /** INSERT … ON CONFLICT DO NOTHING: exactly one caller ever runs the day end of `day`. */
  claimDay(day: string, atMs: number): Promise<boolean>;
  /** The latest Istanbul date whose day end ran, or null on a database that never ran one. */
  lastDay(): Promise<string | null>;
  /** The first capture no day end has settled yet (voided ones never are), or null. */
  oldestUnsettledCaptureMs(): Promise<number | null>;
  hasRun(day: string): Promise<boolean>;
  /**
   * Settles every capture made before `cutoffMs` (the end of `day`) and not settled yet: after
   * this no void is possible. A payment whose void is pending waits for the bank's answer: an
   * approved void leaves nothing to settle, a declined one is settled by the next day end.
   */
  settle(day: string, cutoffMs: number): Promise<number>;
  /** The partners a day end running on `runDay` (00:00 = `cutoffMs`) may pay, in id order. */
  partnersWithDue(runDay: string, cutoffMs: number): Promise<string[]>;
  /** What that day end would pay one partner, exactly. */
  dueOf(partnerId: string, runDay: string, cutoffMs: number): Promise<PartnerDue>;
  createBatch(b: Pick<PayoutBatchRow, "id" | "createdAtMs" | "partnerId" | "amount" | "day">): Promise<void>;
  /** Puts the partner's due captures and refunds into the batch; answers the batch's net amount, exactly. */
  assignDue(batchId: string, partnerId: string, runDay: string, cutoffMs: number): Promise<bigint>;
  batch(id: string): Promise<PayoutBatchRow | undefined>;
  /** Batches created but not yet answered by the bank (restart recovery). */
  pendingBatches(): Promise<PayoutBatchRow[]>;
  finishBatch(id: string, from: readonly PayoutStatus[], to: PayoutStatus, atMs: number, reference?: string | null): Promise<boolean>;
  /** docs/banks.md: the banks of the connections behind a batch's captures and refunds. */
  banksOfBatch(id: string): Promise<string[]>;
  /** A failed payout gives its items back: they are due again at the next day end. */
  releaseBatch(id: string): Promise<void>;
}

export interface PanelUsersOps {
  byEmail(email: string): Promise<PanelUserRow | undefined>;
  get(id: string): Promise<PanelUserRow | undefined>;
  /** null lists every partner's users (the operator CLI); the panel always passes its partner. */
  list(partnerId: string | null): Promise<PanelUserRow[]>;
  insert(u: PanelUserRow): Promise<void>;
  setStatus(id: string, status: "active" | "disabled", atMs: number): Promise<boolean>;
  /** A new password also clears the lock, so an operator's reset is the way out of one. */
  setPassword(id: string, hash: string, atMs: number): Promise<boolean>;
}

export interface PanelSessionsOps {
  get(idHash: string): Promise<PanelSessionRow | undefined>;
  insert(s: PanelSessionRow): Promise<void>;
  touch(idHash: string, atMs: number): Promise<{ changes: number }>;
  remove(idHash: string): Promise<boolean>;
  /** Disabling a user or resetting a password ends every session they have. */
  removeForUser(userId: string): Promise<number>;
}

/** Panel password checks that did not succeed, counted before the hash runs (docs/panel.md, Getting in). */
export interface LoginFailuresOps {
  /** Makes units counting one address take turns (PostgreSQL; SQLite's one writer already does). */
  lock(email: string): Promise<void>;
  /** The address's failures at or after `sinceMs`, newest first, at most `limit`. */
  since(email: string, sinceMs: number, limit: number): Promise<LoginFailureRow[]>;
  /** Answers the new row's seq. */
  insert(email: string, ip: string, atMs: number): Promise<number>;
  remove(seq: number): Promise<void>;
  /** Every failure of the address from `ip`, or from anywhere when `ip` is null (a password reset). */
  clear(email: string, ip: string | null): Promise<void>;
  /** Forgets failures older than every window. */
  prune(beforeMs: number): Promise<void>;
}

export interface PanelAuditOps {
  insert(a: AuditRow): Promise<void>;
  /** Newest first, keyset-paged on seq through the partner's index. */
  page(partnerId: string, beforeSeq: number | null, limit: number): Promise<AuditRow[]>;
}

export interface PanelOps {
  /** Newest first, keyset-paged: page N costs what page 1 does. */
  payments(f: PaymentPageFilter): Promise<PaymentSummaryRow[]>;
  /**
   * Captures in [fromMs, toMs). A payment is captured within its lifetime of creation, so the
   * created_at bound (a day earlier) keeps the read inside the partner's index range.
   */
  captured(partnerId: string, fromMs: number, toMs: number, createdAfterMs: number): Promise<{ count: number; sum: number }>;
}

export interface MetricsOps {
  /** Webhook outbox rows still to be delivered (the deliveries_due index answers it). */
  pendingDeliveries(): Promise<number>;
  /** The trigger-kept counts of one family (schema.sql `metric_counts`), by label. */
  counts(family: "payment" | "refund" | "delivery"): Promise<{ label: string; n: number }[]>;
}

/**
 * Tests only (issue 18: a test asks the store by name, never in SQL). Reads no feature needs, and
 * writes that reach states no transition makes, so they skip every transition's checks; the
 * service never calls them.
 */
export interface FixturesOps {
  /** Tests: how many payments exist, whatever their state (a refused request must add none). */
  paymentCount(): Promise<number>;
  /** Tests: how many payment links exist, whatever their state (a refused create must add none). */
  linkCount(): Promise<number>;
  /** Tests: every PSP in id order (the catalog reads one PSP at a time). */
  psps(): Promise<PspRow[]>;
  /** Tests: the whole BIN table in BIN order (a refused seed must change none of it). */
  bins(): Promise<BinRow[]>;
  /** Tests: every day whose day end ran, oldest first (each runs exactly once, docs/contract.md, The sandbox). */
  dayEnds(): Promise<string[]>;
  /** Tests: overwrites the given columns of one payment (a forced status, a net near 2^53, a row damaged for `kasa check`). */
  patchPayment(code: string, patch: PaymentPatch): Promise<boolean>;
  /** Tests: overwrites the given columns of one refund (moved to another payment, or above its capture, for `kasa check`). */
  patchRefund(id: string, patch: RefundPatch): Promise<boolean>;
  /** Tests: sets a payout batch's status as given (a paid batch made pending again, to mark it by hand). */
  forcePayoutStatus(id: string, status: PayoutStatus): Promise<boolean>;
  /** Tests: a refund row in any state, as given (an approved refund already netted in a payout). */
  insertRefund(r: RefundRow): Promise<void>;
  /** Tests: a payout batch row in any state, as given. */
  insertPayoutBatch(b: PayoutBatchRow): Promise<void>;
  /** Tests: deletes every payment and what hangs off it (attempts, refunds, outbox rows): a database changed since its backup. */
  deletePayments(): Promise<void>;
}
