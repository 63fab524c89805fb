import type {
  DeliveryFilter,
  DeliveryListRow,
  DeliveryRow,
  DeliveryTimerRow,
  LinkListFilter,
  LinkRow,
  LinkStatus,
  TailAttempt,
  TailDelivery,
  WebhookAttemptRow,
} from "./rows";

// The store interface's operations on payment links, a link page's checkout and the webhook
// outbox (store.ts).

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
