import { describe, expect, it } from "vitest";
import type { BankRecord, BankRecordStatus } from "../../../src/bank/module";
import { attemptInProgress, classifyAttempt, classifyRefund, kasaStatusOf } from "../../../src/domain/reconciliation/classify";
import { needsOperator } from "../../../src/domain/reconciliation/view";
import type { ReconcileAttemptRow, ReconcileFindingRow, ReconcileRefundRow } from "../../../src/store/reconcile-ops";
import type { AttemptStatus, PaymentStatus } from "../../../src/store/rows-money";

// Reconciliation's classes (docs/reconciliation.md), one row per rule: what kasa recorded against what the bank's records say.

const NOW = Date.parse("2026-03-02T09:00:00Z");

const attempt = (
  attemptStatus: AttemptStatus,
  paymentStatus: PaymentStatus,
  over: Partial<ReconcileAttemptRow> = {},
): ReconcileAttemptRow => ({
  attemptId: "att-1",
  paymentCode: "pay_1",
  attemptStatus,
  paymentStatus,
  amount: 10_000,
  installment: 1,
  bankReference: attemptStatus === "captured" ? "att-1" : null,
  expiresAtMs: NOW - 1,
  checkOpen: false,
  ...over,
});

const bank = (status: BankRecordStatus, amount: number | null = 10_000): BankRecord => ({ status, amount, reference: "HR1" });

describe("product 26: an attempt sent to the bank", () => {
  it.each([
    ["matched: both approved, same amount", attempt("captured", "captured"), bank("approved"), "matched"],
    ["matched: the bank's answer gives no amount (kasa's stands)", attempt("captured", "captured"), bank("approved", null), "matched"],
    ["matched: a refunded payment's sale is still approved at the bank", attempt("captured", "refunded"), bank("approved"), "matched"],
    [
      "amount_mismatch: both approved, the bank captured another amount",
      attempt("captured", "captured"),
      bank("approved", 9_000),
      "amount_mismatch",
    ],
    ["bank_approved: kasa failed it, the bank approved", attempt("failed", "failed"), bank("approved"), "bank_approved"],
    [
      "bank_approved: kasa expired it, the bank approved (a lost 3D Pay callback)",
      attempt("acs", "expired"),
      bank("approved"),
      "bank_approved",
    ],
    ["bank_missing: kasa captured, the bank has no record", attempt("captured", "captured"), bank("none", null), "bank_missing"],
    ["bank_missing: kasa captured, the bank declined it", attempt("captured", "captured"), bank("declined", null), "bank_missing"],
    ["bank_missing: kasa captured, the bank shows it voided", attempt("captured", "captured"), bank("voided"), "bank_missing"],
    ["matched: kasa voided it, the bank shows it voided", attempt("captured", "voided"), bank("voided"), "matched"],
    [
      "matched: kasa voided it, the bank's status query calls it declined (the void refund is asked on its own)",
      attempt("captured", "voided"),
      bank("declined", null),
      "matched",
    ],
    ["matched: kasa failed it, the bank declined", attempt("failed", "failed"), bank("declined", null), "matched"],
    ["matched: kasa expired it, the bank has no record", attempt("acs", "expired"), bank("none", null), "matched"],
    ["unknown: the bank did not answer (kasa captured)", attempt("captured", "captured"), bank("unknown", null), "unknown"],
    ["unknown: the bank did not answer (kasa failed)", attempt("failed", "failed"), bank("unknown", null), "unknown"],
  ] as const)("%s", (_name, a, b, expected) => {
    expect(classifyAttempt(a, b)).toBe(expected);
  });

  it.each([
    ["within its 3D window (at the bank's page)", attempt("acs", "initiated", { expiresAtMs: NOW + 1 }), true],
    ["capturing within its window", attempt("capturing", "initiated", { expiresAtMs: NOW + 1 }), true],
    ["a follow-up of kasa's own is open (status question, late void)", attempt("failed", "expired", { checkOpen: true }), true],
    ["its window closed", attempt("acs", "expired"), false],
    ["captured", attempt("captured", "captured"), false],
  ] as const)("in_progress: %s -> %s", (_name, a, expected) => {
    expect(attemptInProgress(a, NOW)).toBe(expected);
  });

  it.each([
    [attempt("captured", "refunded"), "refunded"],
    [attempt("failed", "captured"), "failed"],
    [attempt("acs", "expired"), "expired"],
    [attempt("failed", "failed"), "failed"],
  ] as const)("kasa.status of %o is %s", (a, expected) => {
    expect(kasaStatusOf(a)).toBe(expected);
  });
});

const refund = (method: "void" | "credit", status: "approved" | "declined" | "pending", amount = 4_000): ReconcileRefundRow => ({
  refundId: "rfd_1",
  paymentCode: "pay_1",
  method,
  status,
  amount,
  bankReference: "HR2",
  captureReference: "att-1",
});

describe("product 26: a refund sent to the bank", () => {
  it.each([
    ["matched: a credit found with its amount", refund("credit", "approved"), bank("refunded", 4_000), "matched"],
    ["matched: a void found", refund("void", "approved", 10_000), bank("voided", 10_000), "matched"],
    ["amount_mismatch: the bank credited another amount", refund("credit", "approved"), bank("refunded", 3_000), "amount_mismatch"],
    ["amount_mismatch: kasa declined it, the bank credited", refund("credit", "declined"), bank("refunded", 4_000), "amount_mismatch"],
    ["bank_missing: kasa approved a credit, the bank has none", refund("credit", "approved"), bank("none", null), "bank_missing"],
    ["bank_missing: kasa approved a void, the order is not voided", refund("void", "approved"), bank("none", null), "bank_missing"],
    ["matched: kasa declined it, the bank has none", refund("credit", "declined"), bank("none", null), "matched"],
    ["unknown: the bank did not answer", refund("credit", "approved"), bank("unknown", null), "unknown"],
  ] as const)("%s", (_name, r, b, expected) => {
    expect(classifyRefund(r, b)).toBe(expected);
  });
});

const finding = (cls: ReconcileFindingRow["class"], outcome: ReconcileFindingRow["repairOutcome"] = null): ReconcileFindingRow => ({
  class: cls,
  paymentCode: "pay_1",
  attemptId: "att-1",
  refundId: null,
  kasaStatus: "failed",
  kasaAmount: 1,
  bankStatus: "approved",
  bankAmount: 1,
  bankReference: null,
  repairAction: outcome === null ? null : "void",
  repairOutcome: outcome,
});

describe("product 26: run exits 1 while a finding other than a bank_approved repaired with outcome approved remains", () => {
  it.each([
    ["no findings", [], false],
    ["a bank_approved order voided", [finding("bank_approved", "approved")], false],
    ["a bank_approved order whose void was declined", [finding("bank_approved", "declined")], true],
    ["a bank_approved order whose void got no answer", [finding("bank_approved", "unknown")], true],
    ["an unknown", [finding("unknown")], true],
    ["a bank_missing beside a repaired one", [finding("bank_approved", "approved"), finding("bank_missing")], true],
    ["an amount_mismatch", [finding("amount_mismatch")], true],
    ["a not_in_kasa", [finding("not_in_kasa")], true],
  ] as const)("%s -> %s", (_name, findings, expected) => {
    expect(needsOperator(findings)).toBe(expected);
  });
});
