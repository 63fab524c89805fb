import type { BankRecord } from "../../bank/module";
import type { ReconcileAttemptRow, ReconcileClass, ReconcileRefundRow } from "../../store/reconcile-ops";

// The classes of a reconciliation (docs/reconciliation.md), decided from what kasa recorded and
// what the bank's records say, without side effects: the run asks, this decides, the run repairs.

/** Counts of a run by class; `findings` list every item that is neither matched nor in progress. */
export const CLASSES: readonly ReconcileClass[] = [
  "matched",
  "amount_mismatch",
  "bank_approved",
  "bank_missing",
  "unknown",
  "not_in_kasa",
  "in_progress",
];

export type Counts = Record<ReconcileClass, number>;

export const zeroCounts = (): Counts => Object.fromEntries(CLASSES.map((c) => [c, 0])) as Counts;

export const isFinding = (c: ReconcileClass): boolean => c !== "matched" && c !== "in_progress";

/**
 * Still within its 3D window (the buyer may yet come back), or followed up by kasa already (a
 * capture whose answer is being asked, a late approval being voided): the bank is not asked.
 */
export const attemptInProgress = (a: ReconcileAttemptRow, nowMs: number): boolean =>
  a.checkOpen ||
  ((a.attemptStatus === "acs" || a.attemptStatus === "capturing") && a.paymentStatus === "initiated" && nowMs < a.expiresAtMs);

/** What kasa says of the attempt: its payment's status once captured, else failed or expired. */
export function kasaStatusOf(a: ReconcileAttemptRow): string {
  if (a.attemptStatus === "captured") return a.paymentStatus;
  return a.paymentStatus === "expired" ? "expired" : "failed";
}

const sameAmount = (kasa: number, bank: number | null): boolean => bank === null || bank === kasa;

/** One attempt sent to the bank, not in progress, against the bank's record of its order. */
export function classifyAttempt(a: ReconcileAttemptRow, bank: BankRecord): ReconcileClass {
  if (bank.status === "unknown") return "unknown";
  if (a.attemptStatus === "captured") {
    // A payment kasa voided itself: whether the bank voided it too is its void refund's question
    // (a status query may call a voided order declined or unknown to it).
    if (a.paymentStatus === "voided") return "matched";
    if (bank.status === "approved") return sameAmount(a.amount, bank.amount) ? "matched" : "amount_mismatch";
    return "bank_missing";
  }
  return bank.status === "approved" ? "bank_approved" : "matched";
}

/** What the bank shows once a refund of this method went through. */
const expectedOf = (r: ReconcileRefundRow): BankRecord["status"] => (r.method === "void" ? "voided" : "refunded");

/** One refund sent to the bank and answered (a pending one is in progress), against the bank's record. */
export function classifyRefund(r: ReconcileRefundRow, bank: BankRecord): ReconcileClass {
  if (bank.status === "unknown") return "unknown";
  const atBank = bank.status === expectedOf(r);
  if (r.status === "approved") {
    if (!atBank) return "bank_missing";
    return sameAmount(r.amount, bank.amount) ? "matched" : "amount_mismatch";
  }
  // Declined in kasa, yet done at the bank: the money moved by an amount kasa does not count.
  return atBank ? "amount_mismatch" : "matched";
}
