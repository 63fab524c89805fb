import type { ConnectionTaken, ConnectionUsage, LinkSummaryRow, OperatorFilter, RoomTerms, UsageWindows } from "./rows";
import type {
  AttemptRow,
  AttemptStatus,
  CaptureCheckOutcome,
  CaptureCheckRow,
  CaptureFacts,
  CardFacts,
  NewPayment,
  NewRefund,
  PartnerDue,
  PaymentRow,
  PaymentStatus,
  PaymentSummaryRow,
  PayoutBatchRow,
  PayoutStatus,
  RefundOutcome,
  RefundRow,
  RefundStatus,
  RefundTotals,
} from "./rows-money";

// The money's operations of the store interface (store.ts): payments, their attempts and bank
// follow-ups, refunds, settlement and the operator's listings. Named operations, one per need.

export interface PaymentsOps {
  /** 3D start (docs/contract.md, Payments): fixes card facts and rate, and uses up the ref until a decline frees it. */
  markThreeDStarted(code: string, from: readonly PaymentStatus[], c: CardFacts, atMs: number): Promise<boolean>;
  /** A decline at 3D start: the ref is usable again and the attempt counts (docs/contract.md, Payment states). */
  releaseThreeD(code: string, from: readonly PaymentStatus[], atMs: number): Promise<boolean>;
  /**
   * A router whose members all failed before the buyer left (docs/routing.md): the ref is usable
   * again and nothing counts, as after a connection limit.
   */
  reopenThreeD(code: string, from: readonly PaymentStatus[], atMs: number): Promise<boolean>;
  /** Re-prices a started payment for the member that took its attempt over (a failover). */
  repriceThreeD(
    code: string,
    from: readonly PaymentStatus[],
    c: Pick<CardFacts, "appliedRateBps" | "appliedFixedFee">,
    atMs: number,
  ): Promise<boolean>;
  /**
   * Moves a payment's limit usage onto another connection (a router's serving member); the
   * totals follow by trigger. False when it already counts there.
   */
  moveConnection(code: string, connectionId: string, atMs: number): Promise<boolean>;
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
  /**
   * The same usage, read after locking the connection's row until the unit ends, so exact checks
   * of its limits run one at a time (docs/postgresql.md: PostgreSQL's SELECT … FOR UPDATE, then the
   * read, pipelined in one round trip; SQLite's single writer already runs units one at a time, so
   * there it is the plain read), with the room running instances have reserved (docs/postgresql.md,
   * "Connection limits across instances"): `others` by other instances, `own` by this one while it
   * can still admit against it (both 0 on SQLite).
   */
  lockedConnectionUsage(connectionId: string, w: UsageWindows, exceptCode: string | null, room: RoomTerms): Promise<ConnectionTaken>;
  /**
   * A create of `amount` admitted against this instance's reservation of the connection's room,
   * without the lock: `true` when the reservation holds it (and now counts it), `false` when the
   * exact check must decide. Always `false` on SQLite.
   */
  admitReserved(connectionId: string, amount: number, w: UsageWindows, room: RoomTerms): Promise<boolean>;
  /**
   * A create in one statement, sent with its first reads (docs/postgresql.md, "A create in one
   * round trip"): inserts `p`, unless an active payment holds its code, when it is admitted within
   * this instance's reservation of the connection's room (`frame`: that check's windows and terms;
   * null when the connection has no period or window limit, and no admission is needed). `null`
   * when it inserted nothing (no usable reservation, no room, the code held): the create then goes
   * the exact way. Always `null` on SQLite, where every create is checked exactly.
   */
  insertWithinReservation(p: NewPayment, frame: { w: UsageWindows; room: RoomTerms } | null): Promise<PaymentRow | null>;
  /** Takes back the room other instances reserved and have not used (under the connection lock); a no-op on SQLite. */
  reclaimRoom(connectionId: string): Promise<void>;
  /** Replaces this instance's reservation of the connection's room with `amount` (none at 0); a no-op on SQLite. */
  reserveRoom(connectionId: string, amount: bigint, room: RoomTerms): Promise<void>;
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
export type NewAttempt = Pick<AttemptRow, "id" | "status" | "createdAtMs" | "paymentCode" | "counted" | "terminalId" | "connectionId"> & {
  route?: AttemptRow["route"];
};

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
  /** A router's failover within a `starting` attempt: the next member takes it (docs/routing.md). */
  reroute(id: string, to: Pick<AttemptRow, "terminalId" | "connectionId" | "route">, atMs: number): Promise<boolean>;
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
