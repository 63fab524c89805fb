import postgres from "postgres";
import { wallNowMs } from "../../clock";
import { ANY_LANE, type Unit } from "../store";
import type { BatchScope } from "./cached-repos-pg";

// Group commit on PostgreSQL (issue 37, docs/postgresql.md "Group commit"): the units of work queued
// in one event-loop turn on one lane run in one transaction, each inside its own savepoint, and
// commit with one WAL flush. As on SQLite (sqlite-store.ts), a unit that throws rolls back to its
// savepoint alone and the others commit (unless a statement of it failed: `inTransaction`); unlike
// SQLite, the lanes' transactions run at once
// (`RUNNERS`), since units on different rows need not wait for each other, and units on the same
// row (a bank connection's limit totals) wait for one commit per batch instead of one per unit.
//
// A unit that fails with a duplicate key or a deadlock (another instance got there first, or
// PostgreSQL broke a lock cycle by aborting this side) is run once more after its batch has
// ended, alone in a transaction of its own, as before group commit: by then the other transaction
// has committed or let go, and the re-run sees its rows. Two batches (two lanes of one instance,
// or two instances) can each hold a row the other's next unit wants (units on two bank
// connections, taken in opposite orders). So a unit in a batch waits for a row lock at most
// `BATCH_LOCK_TIMEOUT`, then runs alone after its batch, where it holds nothing else and may wait
// as long as it takes: a lock cycle between batches costs that long, not PostgreSQL's deadlock
// timeout, and no unit is refused for it.

/**
 * Units per transaction: each unit that writes takes a subtransaction id, and past 64 of them in
 * one transaction PostgreSQL's snapshots overflow to pg_subtrans, slowing every session.
 */
export const MAX_BATCH = 48;
/**
 * Transactions of units open at once, one per lane (the pool keeps its other connections for reads
 * and LISTEN). A unit that names its lane (`Unit.lane`: a webhook attempt names its delivery)
 * always runs in that lane's transactions, so units contending for one row are batched together
 * instead of waiting for each other's commits, and units of other lanes do not wait behind that
 * batch. A unit of `ANY_LANE` (a create payment, which normally locks no shared row: it is
 * admitted within its runner's reservation of the connection's room) joins the least busy runner.
 * Units without a lane run in the first lane in the order they were written: one written after
 * another commits after it, as on SQLite.
 */
export const RUNNERS = 4;
/** How long a unit in a batch waits for a row another transaction holds before it runs alone. */
export const BATCH_LOCK_TIMEOUT = "200ms";
/** Runs of a unit alone after its batch, at most. */
const ALONE_ATTEMPTS = 3;

const UNIQUE_VIOLATION = "23505";
const DEADLOCK = "40P01";
const LOCK_NOT_AVAILABLE = "55P03";

const errorCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;

/**
 * The units of a batch rolled back before its COMMIT because a statement failed (`inTransaction`):
 * each runs alone. After a lock waited for in vain this is also what keeps the units not yet run
 * from each waiting out their own timeout for a row the same other transaction holds.
 */
const BATCH_ABORTED = new Error("its batch was rolled back: a statement in it failed");

/** Errors after which the unit's own work was rolled back whole and running it again, alone, is right. */
export const isRerunnable = (error: unknown): boolean => {
  const code = errorCode(error);
  return error === BATCH_ABORTED || code === UNIQUE_VIOLATION || code === DEADLOCK || code === LOCK_NOT_AVAILABLE;
};

type Pending = { unit: Unit<unknown>; resolve: (v: unknown) => void; reject: (e: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export type GroupCommit = {
  write<T>(unit: Unit<T>): Promise<T>;
  /** Resolves once every queued and running unit has ended. */
  drain(): Promise<void>;
};

export type GroupCommitDeps = {
  sql: postgres.Sql;
  /** The repos of one transaction's units on runner `runner` (0 to RUNNERS - 1; cached-repos-pg.ts). */
  openBatch: (runner: number) => BatchScope;
  /** After every transaction, committed or not: the catalog cache forgets what it may have changed. */
  afterTransaction: (batch: BatchScope) => void;
  observe: (units: number, ms: number) => void;
};

/** One lane: its queue, and whether its transaction is running. */
type Lane = { queue: Pending[]; scheduled: boolean; running: boolean };

/** FNV-1a of a lane name: the same name always lands on the same runner. */
function laneIndex(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0) % RUNNERS;
}

export function groupCommit(deps: GroupCommitDeps): GroupCommit {
  const lanes: Lane[] = Array.from({ length: RUNNERS }, () => ({ queue: [], scheduled: false, running: false }));
  const idle: Array<() => void> = [];
  const quiet = () => lanes.every((l) => !l.running && !l.scheduled && l.queue.length === 0);

  /** The runner whose next transaction starts soonest: the shortest queue, an idle one first. */
  const leastBusy = (): number => {
    let best = 0;
    let bestScore = Number.POSITIVE_INFINITY;
    for (const [i, l] of lanes.entries()) {
      const score = 2 * l.queue.length + (l.running ? 1 : 0);
      if (score < bestScore) [best, bestScore] = [i, score];
    }
    return best;
  };
  const schedule = (lane: Lane): void => {
    if (lane.scheduled || lane.running || lane.queue.length === 0) return;
    lane.scheduled = true;
    setImmediate(() => start(lane));
  };
  const start = (lane: Lane): void => {
    lane.scheduled = false;
    const batch = lane.queue.splice(0, MAX_BATCH);
    lane.running = true;
    void runBatch(deps, batch, lanes.indexOf(lane)).finally(() => {
      lane.running = false;
      schedule(lane);
      if (quiet()) for (const wake of idle.splice(0)) wake();
    });
  };

  return {
    write<T>(unit: Unit<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        // A unit naming its lane (the rows it will lock) joins that lane's runner; the others keep
        // to the first, in the order they were written, as on SQLite.
        const lane = lanes[unit.lane === undefined ? 0 : unit.lane === ANY_LANE ? leastBusy() : laneIndex(unit.lane)] as Lane;
        lane.queue.push({ unit: unit as Unit<unknown>, resolve: resolve as (v: unknown) => void, reject });
        schedule(lane);
      });
    },
    drain() {
      if (quiet()) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}

/** One transaction for the batch; every pending unit is settled when it returns, never rejects. */
async function runBatch(deps: GroupCommitDeps, batch: Pending[], runner: number): Promise<void> {
  const started = wallNowMs();
  const scope = deps.openBatch(runner);
  let outcomes: Outcome[];
  try {
    outcomes = await deps.sql.begin((tx) => inTransaction(tx, scope, batch));
  } catch (error) {
    // BATCH_ABORTED: rolled back before COMMIT, every unit runs again alone. Otherwise the
    // transaction itself failed (BEGIN, COMMIT, a lost connection): nothing of it committed that
    // kasa can know of, and each unit answers the error, as a unit's own transaction did.
    outcomes = batch.map(() => ({ ok: false, error }));
  } finally {
    deps.afterTransaction(scope);
  }
  deps.observe(batch.length, wallNowMs() - started);
  const reruns: Pending[] = [];
  for (const [i, p] of batch.entries()) {
    const o = outcomes[i] as Outcome;
    if (o.ok) p.resolve(o.value);
    else if (isRerunnable(o.error)) reruns.push(p);
    else p.reject(o.error);
  }
  // One after another, in the lane: what the first re-run sets up (a reservation of a connection's
  // room, docs/postgresql.md) serves the next, where at once they would queue on the same rows.
  for (const p of reruns) await alone(deps, p, runner);
}

/**
 * The batch's units in its transaction. The batch's own statements (each unit's SAVEPOINT, the
 * ROLLBACK TO of a unit that threw) are not waited for one by one, as postgres.js's `savepoint`
 * waits for its SAVEPOINT before it runs the unit: each goes out in the same write as the unit's
 * first statements, so a unit costs its own round trips and no more (issue 37: the savepoint's
 * round trip was a sixth of a create's CPU in kasa). postgres.js's `begin` still owns the
 * transaction and its connection (a connection lost mid-batch rejects it, as before), and it
 * refuses to COMMIT a transaction in which any statement failed, even one rolled back to its
 * savepoint. So a unit that throws for a failed statement (a duplicate key, a lock waited for in
 * vain) ends the batch: `BATCH_ABORTED` rolls it back and every unit runs again alone, its answer
 * possibly resting on rows the rollback undid. A unit that throws for a rule (a refusal) only
 * rolls back to its savepoint, and the others commit.
 */
async function inTransaction(tx: postgres.TransactionSql, scope: BatchScope, batch: Pending[]): Promise<Outcome[]> {
  const send = (statement: string): void =>
    void tx
      .unsafe(statement)
      .execute()
      .catch(() => {});
  send(`SET LOCAL lock_timeout = '${BATCH_LOCK_TIMEOUT}'`);
  // Every unit runs on the transaction's connection: one set of repos serves them all.
  const repos = scope.repos(tx);
  const results: Outcome[] = [];
  for (const [i, p] of batch.entries()) {
    send(`SAVEPOINT u${i}`);
    try {
      results.push({ ok: true, value: await p.unit(repos) });
    } catch (error) {
      if (error instanceof postgres.PostgresError) throw BATCH_ABORTED;
      send(`ROLLBACK TO SAVEPOINT u${i}`);
      results.push({ ok: false, error });
    }
  }
  return results;
}

/**
 * The re-run of a unit whose run in a batch hit a duplicate key, a deadlock or a lock it waited
 * too long for: its own transaction, where it waits as long as it takes; up to three times, since
 * PostgreSQL may still pick it as a deadlock's victim (each time it was rolled back whole).
 */
async function alone(deps: GroupCommitDeps, p: Pending, runner: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const started = wallNowMs();
    const scope = deps.openBatch(runner);
    try {
      p.resolve(await deps.sql.begin((tx) => p.unit(scope.repos(tx))));
      return;
    } catch (error) {
      if (attempt >= ALONE_ATTEMPTS || !isRerunnable(error)) {
        p.reject(error);
        return;
      }
    } finally {
      deps.afterTransaction(scope);
      deps.observe(1, wallNowMs() - started);
    }
  }
}
