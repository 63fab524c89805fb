import { defaultBank } from "../../bank/registry";
import type { Deps } from "../../deps";
import { parseCivil } from "../checks/civil-date";
import { addDays, istanbulDate } from "../checks/istanbul-time";
import { reconcileConnection, type RunResult } from "./run";

// What `kasa reconcile run` and the daily run reconcile (docs/reconciliation.md): by default the
// previous Istanbul day of every connection whose bank is not the simulated one, the default bank
// of the list (its records are kasa's own references); `--connection` may name any connection.

export class ReconcileUsageError extends Error {
  override name = "ReconcileUsageError";
}

/** The previous Istanbul day of `nowMs`: what a run without `--date` reconciles. */
export const previousDay = (nowMs: number): string => addDays(istanbulDate(nowMs), -1);

/** A YYYY-MM-DD that is a real date and not after today (Istanbul); else a usage error. */
export function runDate(text: string | undefined, nowMs: number): string {
  if (text === undefined) return previousDay(nowMs);
  try {
    parseCivil(text);
  } catch {
    throw new ReconcileUsageError(`--date must be a YYYY-MM-DD date, not ${JSON.stringify(text)}`);
  }
  if (text > istanbulDate(nowMs))
    throw new ReconcileUsageError(`--date ${text} is in the future (today is ${istanbulDate(nowMs)} in Istanbul)`);
  return text;
}

/** The connections a run covers: the one named (which must exist), else every one whose bank is not simulated. */
export async function runConnections(deps: Deps, connectionId: string | undefined): Promise<string[]> {
  if (connectionId !== undefined) {
    if (!(await deps.store.q.catalog.connection(connectionId))) throw new ReconcileUsageError(`no connection ${connectionId}`);
    return [connectionId];
  }
  const simulated = defaultBank(deps.banks.modules).id;
  return (await deps.store.q.catalog.connections()).filter((c) => c.bank !== simulated).map((c) => c.id);
}

/**
 * One run per connection of the scope, one after another; each waits for a run of its connection
 * already going. `unlessRanSince`: the daily run's due time, so instances sharing a database run it once.
 */
export async function reconcile(deps: Deps, connectionIds: readonly string[], day: string, unlessRanSince?: number): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (const id of connectionIds) results.push(await reconcileConnection(deps, id, day, unlessRanSince));
  return results;
}
