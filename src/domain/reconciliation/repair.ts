import type { BankGateway, RefundResult } from "../../bank/gateway";
import type { BankRecord, BankReconciler } from "../../bank/module";
import type { Deps } from "../../deps";
import type { ReconcileAttemptRow, RepairAction, RepairOutcome } from "../../store/reconcile-ops";

// The one repair reconciliation makes (docs/reconciliation.md, bank_approved): the bank approved an
// order kasa has failed or expired, so the buyer was charged for nothing; the charge is voided, or
// credited in full once the bank's end of day has passed. Like a refund, the repair is recorded
// before the bank is called: a run that finds one recorded without an answer asks the bank first
// and sends it only if nothing landed, so a crash never sends it twice. Nothing of kasa's payment
// or attempt changes: they already say the money was not taken.

export type Repair = { action: RepairAction; outcome: RepairOutcome };

const outcomeOf = (r: RefundResult): RepairOutcome =>
  r.status === "approved" ? "approved" : r.status === "declined" ? "declined" : "unknown";

export interface RepairContext {
  deps: Deps;
  connectionId: string;
  gateway: BankGateway;
  reconciler: BankReconciler;
}

export async function repairBankApproved(ctx: RepairContext, a: ReconcileAttemptRow, bank: BankRecord): Promise<Repair> {
  const { deps } = ctx;
  const captureReference = bank.captureReference ?? bank.reference;
  if (captureReference === null) return { action: "void", outcome: "unknown" };
  // The whole charge as the bank holds it (kasa's amount where its answer gives none).
  const amount = bank.amount ?? a.amount;
  const target = { ...a, amount };
  const record = (action: RepairAction) =>
    deps.store.write((tx) =>
      tx.reconcile.recordRepair({
        attemptId: a.attemptId,
        connectionId: ctx.connectionId,
        action,
        amount,
        captureReference,
        createdAtMs: deps.clock.nowMs(),
      }),
    );
  const recorded = await deps.store.q.reconcile.repair(a.attemptId);
  if (recorded?.outcome === "approved") return { action: recorded.action, outcome: "approved" };
  if (recorded?.outcome === "declined" && recorded.action === "credit") return { action: "credit", outcome: "declined" };
  let action: RepairAction =
    recorded?.outcome === "declined" ? "credit" : (recorded?.action ?? (bank.voidable === false ? "credit" : "void"));
  if (recorded && recorded.outcome !== "declined") {
    // Recorded, answer lost (a crash, a timeout): did it land? Only "no" sends it.
    const found = await ctx.reconciler.refund({
      captureReference,
      refundReference: null,
      method: action,
      amount,
      nowMs: deps.clock.nowMs(),
    });
    if (found.status === "unknown") return { action, outcome: "unknown" };
    if (found.status === "voided" || found.status === "refunded") {
      await deps.store.write(async (tx) => void (await tx.reconcile.finishRepair(a.attemptId, action, "approved", deps.clock.nowMs())));
      return { action, outcome: "approved" };
    }
  } else if (!(await record(action))) {
    // Another run recorded it meanwhile: never a second send; the next run finds its answer.
    return { action, outcome: "unknown" };
  }
  let outcome = await send(ctx, target, action, captureReference);
  if (action === "void" && outcome === "declined" && (await record("credit"))) {
    // Refused: the bank's day ended since it answered (no void any more); the whole amount is credited.
    action = "credit";
    outcome = await send(ctx, target, action, captureReference);
  }
  return { action, outcome };
}

async function send(ctx: RepairContext, a: ReconcileAttemptRow, action: RepairAction, captureReference: string): Promise<RepairOutcome> {
  const { deps } = ctx;
  const input = {
    idempotencyKey: `${a.attemptId}-reconcile-${action}`,
    bankReference: captureReference,
    amount: a.amount,
    nowMs: deps.clock.nowMs(),
  };
  let outcome: RepairOutcome;
  try {
    outcome = outcomeOf(action === "void" ? await ctx.gateway.void(input) : await ctx.gateway.refund(input));
  } catch {
    outcome = "unknown";
  }
  await deps.store.write(async (tx) => void (await tx.reconcile.finishRepair(a.attemptId, action, outcome, deps.clock.nowMs())));
  const fields = { connectionId: ctx.connectionId, paymentCode: a.paymentCode, attemptId: a.attemptId, action, outcome };
  if (outcome === "declined")
    deps.log.error("reconciliation: the bank refused the repair of a charge kasa never took; an operator must act", fields);
  else deps.log.warn("reconciliation: a charge the bank approved and kasa never took was reversed", fields);
  return outcome;
}
