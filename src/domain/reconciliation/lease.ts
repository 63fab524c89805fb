import { wallNowMs } from "../../clock";
import type { Deps } from "../../deps";
import { MINUTE_MS, SECOND_MS } from "../../limits";
import { pause } from "../../pause";

// Two runs of one connection never overlap (docs/reconciliation.md): within a process they queue
// on a promise chain; across processes and PostgreSQL instances the run holds the connection's
// lease row, renewed as it goes. A second run waits for it. The lease runs on the wall clock, not
// the sandbox clock (which jumps), so a crashed holder's lease runs out in real minutes.

const LEASE_MS = 2 * MINUTE_MS;
const WAIT_STEP_MS = SECOND_MS;
/** A renewal writes only when this much of the lease has gone: one write per item would cost a commit each. */
const RENEW_AFTER_MS = LEASE_MS / 4;

const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

export interface Lease {
  /** Renews the lease before a long step; throws if another holder took it meanwhile. */
  renew(): Promise<void>;
}

export async function withConnectionLease<T>(deps: Deps, connectionId: string, run: (lease: Lease) => Promise<T>): Promise<T> {
  let byConnection = queues.get(deps.store);
  if (!byConnection) {
    byConnection = new Map();
    queues.set(deps.store, byConnection);
  }
  const before = byConnection.get(connectionId) ?? Promise.resolve();
  const mine = before.catch(() => {}).then(() => underLease(deps, connectionId, run));
  byConnection.set(connectionId, mine);
  try {
    return await mine;
  } finally {
    if (byConnection.get(connectionId) === mine) byConnection.delete(connectionId);
  }
}

async function underLease<T>(deps: Deps, connectionId: string, run: (lease: Lease) => Promise<T>): Promise<T> {
  const holder = deps.ids.instanceId();
  const take = () => deps.store.write((tx) => tx.reconcile.takeLease(connectionId, holder, wallNowMs(), wallNowMs() + LEASE_MS));
  while (!(await take())) await pause(WAIT_STEP_MS, new AbortController().signal);
  let takenAtMs = wallNowMs();
  const lease: Lease = {
    async renew() {
      if (wallNowMs() - takenAtMs < RENEW_AFTER_MS) return;
      if (!(await take())) throw new Error(`the reconciliation lease of ${connectionId} was taken by another run`);
      takenAtMs = wallNowMs();
    },
  };
  try {
    return await run(lease);
  } finally {
    await deps.store.write((tx) => tx.reconcile.releaseLease(connectionId, holder));
  }
}
