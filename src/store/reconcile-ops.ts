import type { AttemptStatus, PaymentStatus, RefundMethod, RefundStatus } from "./rows-money";

// Reconciliation's rows and named operations (docs/reconciliation.md): what kasa sent to a
// connection's bank on one Istanbul day, the stored runs and their findings, the repairs (recorded
// before the bank is called, like refunds) and the lease that keeps two runs of one connection apart.

/** An attempt sent to the bank, with what kasa recorded of it and of its payment. */
export type ReconcileAttemptRow = {
  attemptId: string;
  paymentCode: string;
  attemptStatus: AttemptStatus;
  paymentStatus: PaymentStatus;
  amount: number;
  installment: number;
  /** The payment's capture reference, null while nothing was captured. */
  bankReference: string | null;
  expiresAtMs: number;
  /** A capture follow-up (status question, late void) is still open: the bank is being asked already. */
  checkOpen: boolean;
};

/** A refund sent to the bank, with the reference of the capture it reverses. */
export type ReconcileRefundRow = {
  refundId: string;
  paymentCode: string;
  method: RefundMethod;
  status: RefundStatus;
  amount: number;
  bankReference: string | null;
  captureReference: string | null;
};

export type ReconcileClass = "matched" | "amount_mismatch" | "bank_approved" | "bank_missing" | "unknown" | "not_in_kasa" | "in_progress";

export type RepairAction = "void" | "credit";
export type RepairOutcome = "approved" | "declined" | "unknown";

export type ReconcileFindingRow = {
  class: ReconcileClass;
  paymentCode: string | null;
  attemptId: string | null;
  refundId: string | null;
  kasaStatus: string | null;
  kasaAmount: number | null;
  bankStatus: string;
  bankAmount: number | null;
  bankReference: string | null;
  repairAction: RepairAction | null;
  repairOutcome: RepairOutcome | null;
};

export type ReconcileRunRow = {
  id: string;
  connectionId: string;
  day: string;
  startedAtMs: number;
  finishedAtMs: number;
  /** The later run of the same connection and day that replaced this one; null while it is current. */
  supersededBy: string | null;
  /** The counts by class, as JSON. */
  counts: string;
};

/** A repair of a `bank_approved` order; `outcome` null: recorded, the bank's answer not (yet) recorded. */
export type RepairRow = {
  attemptId: string;
  connectionId: string;
  action: RepairAction;
  amount: number;
  captureReference: string;
  outcome: RepairOutcome | null;
  createdAtMs: number;
  updatedAtMs: number;
};

export interface ReconcileOps {
  /** Attempts created in [fromMs, toMs) that reached the connection's bank (3D step or later). */
  attemptsSent(connectionId: string, fromMs: number, toMs: number): Promise<ReconcileAttemptRow[]>;
  /** Refunds created in [fromMs, toMs) of payments whose money the connection took. */
  refundsSent(connectionId: string, fromMs: number, toMs: number): Promise<ReconcileRefundRow[]>;
  repair(attemptId: string): Promise<RepairRow | undefined>;
  /** Records a repair before its bank call; false when one is recorded already (it is never sent twice). */
  recordRepair(r: Omit<RepairRow, "outcome" | "updatedAtMs">): Promise<boolean>;
  finishRepair(attemptId: string, action: RepairAction, outcome: RepairOutcome, atMs: number): Promise<boolean>;
  /** Takes (or renews) the run lease of a connection until `untilMs`; false while another holder's lease runs. */
  takeLease(connectionId: string, holder: string, nowMs: number, untilMs: number): Promise<boolean>;
  releaseLease(connectionId: string, holder: string): Promise<void>;
  /** Stores a finished run and its findings; the earlier current run of its connection and day is superseded. */
  saveRun(run: Omit<ReconcileRunRow, "supersededBy">, findings: readonly ReconcileFindingRow[]): Promise<void>;
  run(id: string): Promise<ReconcileRunRow | undefined>;
  /** Current runs (not superseded), newest day first, at most `limit`. */
  runs(connectionId: string | null, limit: number): Promise<ReconcileRunRow[]>;
  findings(runId: string): Promise<ReconcileFindingRow[]>;
}
