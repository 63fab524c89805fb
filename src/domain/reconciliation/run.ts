import { isRefundMarker } from "../../bank/gateway";
import type { BankRecord, BankReconciler, DayOrder } from "../../bank/module";
import type { Deps } from "../../deps";
import { invariant } from "../../invariant";
import { DAY_MS } from "../../limits";
import type {
  ReconcileAttemptRow,
  ReconcileClass,
  ReconcileFindingRow,
  ReconcileRefundRow,
  ReconcileRunRow,
} from "../../store/reconcile-ops";
import { istanbulDateStartMs } from "../checks/istanbul-time";
import { attemptInProgress, classifyAttempt, classifyRefund, isFinding, kasaStatusOf, zeroCounts } from "./classify";
import { withConnectionLease } from "./lease";
import { repairBankApproved, type RepairContext } from "./repair";

// One reconciliation run (docs/reconciliation.md): for one connection and one Istanbul day, every
// attempt and refund kasa sent to the bank is asked about, classified, and a `bank_approved`
// order repaired; the run and its findings are stored in one unit at the end (superseding the
// day's earlier run), so a run a crash interrupted leaves nothing but its recorded repairs and is
// simply run again. Bank questions happen outside units of work, one at a time.

export type RunResult = { run: ReconcileRunRow; findings: ReconcileFindingRow[] };

type Item = { cls: ReconcileClass; finding: ReconcileFindingRow | null };

const UNKNOWN: BankRecord = { status: "unknown", amount: null, reference: null };

/** A facet that throws (it should answer `unknown`) does not end the run: the item is unknown. */
async function ask(question: () => Promise<BankRecord>): Promise<BankRecord> {
  try {
    return await question();
  } catch {
    return UNKNOWN;
  }
}

const findingOf = (
  cls: ReconcileClass,
  ids: Pick<ReconcileFindingRow, "paymentCode" | "attemptId" | "refundId">,
  kasa: { status: string | null; amount: number | null },
  bank: BankRecord,
  repair: { action: ReconcileFindingRow["repairAction"]; outcome: ReconcileFindingRow["repairOutcome"] } | null = null,
): ReconcileFindingRow => ({
  class: cls,
  ...ids,
  kasaStatus: kasa.status,
  kasaAmount: kasa.amount,
  bankStatus: bank.status,
  bankAmount: bank.amount,
  bankReference: bank.reference,
  repairAction: repair?.action ?? null,
  repairOutcome: repair?.outcome ?? null,
});

async function attemptItem(ctx: RepairContext, a: ReconcileAttemptRow): Promise<Item> {
  const nowMs = ctx.deps.clock.nowMs();
  if (attemptInProgress(a, nowMs)) return { cls: "in_progress", finding: null };
  const query = { attemptId: a.attemptId, amount: a.amount, installment: a.installment, bankReference: a.bankReference, nowMs };
  const bank = await ask(() => ctx.reconciler.order(query));
  const cls = classifyAttempt(a, bank);
  if (!isFinding(cls)) return { cls, finding: null };
  const repair = cls === "bank_approved" ? await repairBankApproved(ctx, a, bank) : null;
  const ids = { paymentCode: a.paymentCode, attemptId: a.attemptId, refundId: null };
  return { cls, finding: findingOf(cls, ids, { status: kasaStatusOf(a), amount: a.amount }, bank, repair) };
}

async function refundItem(ctx: RepairContext, r: ReconcileRefundRow): Promise<Item> {
  if (r.status === "pending") return { cls: "in_progress", finding: null };
  const captureReference = r.captureReference;
  const bank =
    captureReference === null
      ? UNKNOWN
      : await ask(() =>
          ctx.reconciler.refund({
            captureReference,
            refundReference: isRefundMarker(r.bankReference) ? null : r.bankReference,
            method: r.method,
            amount: r.amount,
            nowMs: ctx.deps.clock.nowMs(),
          }),
        );
  const cls = classifyRefund(r, bank);
  if (!isFinding(cls)) return { cls, finding: null };
  const ids = { paymentCode: r.paymentCode, attemptId: null, refundId: r.refundId };
  return { cls, finding: findingOf(cls, ids, { status: r.status, amount: r.amount }, bank) };
}

/** The day's approved orders at the bank that kasa has no attempt of (list APIs only). */
async function notInKasa(deps: Deps, reconciler: BankReconciler, fromMs: number, known: ReadonlySet<string>): Promise<Item[]> {
  if (!reconciler.day) return [];
  let rows: DayOrder[] | null;
  try {
    rows = await reconciler.day(fromMs);
  } catch {
    rows = null;
  }
  if (rows === null)
    return [
      {
        cls: "unknown",
        finding: findingOf("unknown", { paymentCode: null, attemptId: null, refundId: null }, { status: null, amount: null }, UNKNOWN),
      },
    ];
  const items: Item[] = [];
  for (const row of rows) {
    if (
      row.status !== "approved" ||
      (row.attemptId !== null && (known.has(row.attemptId) || (await deps.store.q.attempts.get(row.attemptId))))
    )
      continue;
    const bank = { status: row.status, amount: row.amount, reference: row.reference ?? row.orderId };
    items.push({
      cls: "not_in_kasa",
      finding: findingOf("not_in_kasa", { paymentCode: null, attemptId: null, refundId: null }, { status: null, amount: null }, bank),
    });
  }
  return items;
}

/** The day's current run of the connection when it finished at or after `sinceMs`, with its findings. */
async function ranSince(deps: Deps, connectionId: string, day: string, sinceMs: number): Promise<RunResult | null> {
  const run = (await deps.store.q.reconcile.runs(connectionId, 1000)).find((r) => r.day === day && r.finishedAtMs >= sinceMs);
  return run ? { run, findings: await deps.store.q.reconcile.findings(run.id) } : null;
}

/**
 * Runs (or runs again) the reconciliation of one connection and day; waits for a run of the same
 * connection. With `unlessRanSince`, a run of that day that finished since then (another instance's
 * daily run, which this one waited for) is answered instead of asking the bank again.
 */
export const reconcileConnection = (deps: Deps, connectionId: string, day: string, unlessRanSince?: number): Promise<RunResult> =>
  withConnectionLease(deps, connectionId, async (lease) => {
    const done = unlessRanSince === undefined ? null : await ranSince(deps, connectionId, day, unlessRanSince);
    if (done) return done;
    const connection = await deps.store.q.catalog.connection(connectionId);
    invariant(connection, `connection ${connectionId} is missing`);
    const ctx: RepairContext = {
      deps,
      connectionId,
      gateway: deps.banks.forConnection(connection),
      reconciler: deps.banks.reconciler(connection),
    };
    const startedAtMs = deps.clock.nowMs();
    const fromMs = istanbulDateStartMs(day);
    const counts = zeroCounts();
    const findings: ReconcileFindingRow[] = [];
    const note = (item: Item) => {
      counts[item.cls]++;
      if (item.finding) findings.push(item.finding);
    };
    const attempts = await deps.store.q.reconcile.attemptsSent(connectionId, fromMs, fromMs + DAY_MS);
    for (const a of attempts) {
      await lease.renew();
      note(await attemptItem(ctx, a));
    }
    for (const r of await deps.store.q.reconcile.refundsSent(connectionId, fromMs, fromMs + DAY_MS)) {
      await lease.renew();
      note(await refundItem(ctx, r));
    }
    for (const item of await notInKasa(deps, ctx.reconciler, fromMs, new Set(attempts.map((a) => a.attemptId)))) note(item);
    const run = {
      id: deps.ids.reconcileRunId(),
      connectionId,
      day,
      startedAtMs,
      finishedAtMs: deps.clock.nowMs(),
      counts: JSON.stringify(counts),
    };
    await deps.store.write((tx) => tx.reconcile.saveRun(run, findings));
    for (const f of findings) deps.log.warn("reconciliation finding", { runId: run.id, connectionId, date: day, ...f });
    return { run: { ...run, supersededBy: null }, findings };
  });
