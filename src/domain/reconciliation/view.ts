import type { ReconcileFindingRow, ReconcileRunRow } from "../../store/reconcile-ops";
import type { Repos } from "../../store/store";
import { CLASSES, type Counts, isFinding, zeroCounts } from "./classify";

// The JSON of a run (docs/reconciliation.md, "The JSON of a run"): what `kasa reconcile run|show
// --json` print, amounts in kuruş.

export type FindingJson = {
  class: ReconcileFindingRow["class"];
  paymentCode: string | null;
  attemptId: string | null;
  refundId: string | null;
  kasa: { status: string | null; amount: number | null };
  bank: { status: string; amount: number | null; reference: string | null };
  repair: { action: "void" | "credit"; outcome: "approved" | "declined" | "unknown" } | null;
};

export type RunJson = { id: string; connectionId: string; date: string; counts: Counts; findings: FindingJson[] };

export const toFindingJson = (f: ReconcileFindingRow): FindingJson => ({
  class: f.class,
  paymentCode: f.paymentCode,
  attemptId: f.attemptId,
  refundId: f.refundId,
  kasa: { status: f.kasaStatus, amount: f.kasaAmount },
  bank: { status: f.bankStatus, amount: f.bankAmount, reference: f.bankReference },
  repair: f.repairAction === null ? null : { action: f.repairAction, outcome: f.repairOutcome ?? "unknown" },
});

export const countsOf = (run: ReconcileRunRow): Counts => ({ ...zeroCounts(), ...(JSON.parse(run.counts) as Partial<Counts>) });

export const toRunJson = (run: ReconcileRunRow, findings: readonly ReconcileFindingRow[]): RunJson => ({
  id: run.id,
  connectionId: run.connectionId,
  date: run.day,
  counts: countsOf(run),
  findings: findings.map(toFindingJson),
});

/** A run leaves work for an operator unless every finding is a `bank_approved` order whose repair the bank approved. */
export const needsOperator = (findings: readonly ReconcileFindingRow[]): boolean =>
  findings.some((f) => !(f.class === "bank_approved" && f.repairOutcome === "approved"));

/**
 * `kasa_reconciliation_findings{connection,class}` (docs/operating.md): the findings of each
 * connection's latest current run, by class, read at scrape time from the stored runs.
 */
export async function latestFindingCounts(q: Repos): Promise<Array<{ connection: string; class: string; n: number }>> {
  const latest = new Map<string, ReconcileRunRow>();
  for (const run of await q.reconcile.runs(null, 1000)) if (!latest.has(run.connectionId)) latest.set(run.connectionId, run);
  return [...latest.values()].flatMap((run) => {
    const counts = countsOf(run);
    return CLASSES.filter(isFinding).map((c) => ({ connection: run.connectionId, class: c, n: counts[c] }));
  });
}
