import type { Deps } from "../../deps";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { dayEndDueAtMs, dayEndsDue, runDayOf } from "./days";
import { formBatch, payBatch } from "./payouts";
import type { PayoutBatchRow } from "../../store/rows-money";

// Day end (docs/contract.md, Refunds / The sandbox; docs/decisions.md, Readings of the contract), run by the timer wheel at 00:00 Istanbul and by `kasa dayend`.
// One unit claims the day (the dayends row: INSERT … ON CONFLICT DO NOTHING decides who runs it,
// in this process or another) and settles the captures made before the cutoff (no void after
// this). Then each partner's payout batch is formed in a unit of its own (docs/decisions.md, Hardening), so one
// partner's failure is logged and never blocks another's: its items stay due and the next day end
// takes them again. The batches are paid outside any unit.

export type DayEndReport = {
  /** The Istanbul date that ended. */
  day: string;
  /** False when the day end had already run (another process, a duplicate timer). */
  ran: boolean;
  settled: number;
  batches: PayoutBatchRow[];
};

/** Runs the day end of `endedDay` unless it already ran. Never before its due instant. */
export async function runDayEnd(deps: Deps, endedDay: string): Promise<DayEndReport> {
  const runDay = runDayOf(endedDay);
  const cutoffMs = dayEndDueAtMs(endedDay);
  invariant(deps.clock.nowMs() >= cutoffMs, `the day end of ${endedDay} is not due before ${runDay}`);
  const closed = await deps.store.write((tx) => closeDay(tx, endedDay, runDay, cutoffMs, deps.clock.nowMs()));
  if (closed === null) return { day: endedDay, ran: false, settled: 0, batches: [] };
  const batchIds: string[] = [];
  for (const partnerId of closed.partners) {
    try {
      const id = await deps.store.write((tx) => formBatch(tx, deps, partnerId, runDay, cutoffMs, deps.clock.nowMs()));
      if (id !== null) batchIds.push(id);
    } catch (error) {
      deps.log.error("day end: payout batch failed; its items stay due for the next day end", { partnerId, day: endedDay, error });
    }
  }
  const batches: PayoutBatchRow[] = [];
  for (const id of batchIds) {
    const batch = await payBatch(deps, id);
    if (batch) batches.push(batch);
  }
  return { day: endedDay, ran: true, settled: closed.settled, batches };
}

/**
 * The day end's unit. Captures count by the cutoff, not by the clock, so a sandbox clock moved over
 * several midnights runs each day end as it would have run on time; refunds approved after the
 * cutoff wait for the next day end.
 */
async function closeDay(
  tx: Repos,
  endedDay: string,
  runDay: string,
  cutoffMs: number,
  nowMs: number,
): Promise<{ settled: number; partners: string[] } | null> {
  if (!(await tx.settlement.claimDay(endedDay, nowMs))) return null;
  const settled = await tx.settlement.settle(endedDay, cutoffMs);
  return { settled, partners: await tx.settlement.partnersWithDue(runDay, cutoffMs) };
}

/** `kasa dayend`: every day end that is due and has not run, oldest first. */
export async function runDueDayEnds(deps: Deps): Promise<DayEndReport[]> {
  const reports: DayEndReport[] = [];
  for (const day of await dayEndsDue(deps.store.q, deps.clock.nowMs())) reports.push(await runDayEnd(deps, day));
  return reports;
}
