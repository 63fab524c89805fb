import { BUDGET_NAMES, BUDGETS, type BudgetLimit, type BudgetName, effectiveLimit } from "./budgets";

/**
 * The rate limiter of docs/contract.md, Rate limits, pure: no clock, no HTTP. The request pipeline passes the
 * service clock's `nowMs` (docs/decisions.md, Readings of the contract: every window follows the service clock, sandbox included)
 * and the list of budgets a request draws on; the answer is all-or-nothing across that list.
 *
 * Each (budget, key) keeps an exact sliding log: the times of its admissions that still count,
 * oldest first, in a ring. An admission at `t` counts while `nowMs - t < windowMs`; at exactly
 * `windowMs` later its slot is free again. So a budget of N admits at most N in any window of its
 * length and never refuses while fewer than N were admitted in it (no fixed-window bursts).
 */

export type RateCheck = {
  readonly budget: BudgetName;
  /** Whose budget: a source-IP rate key (client-ip.ts), an API key id, a partner id, or "". */
  readonly key: string;
  /** The partner's rateLimitMultiplier; ignored by budgets it does not scale (budgets.ts). */
  readonly multiplier?: number;
};

export type RateLimiter = {
  /** False for `--limits off` (the sandbox's choice): nothing to admit, so no share to keep. */
  readonly limited: boolean;
  /** Admits the request iff every check has room; a refusal consumes nothing anywhere. */
  tryAcquire(checks: readonly RateCheck[], nowMs: number): boolean;
  /** docs/operating.md metrics: told the budget of every refusal. */
  observeRefusals(observer: (budget: BudgetName) => void): void;
  /** Entries held in memory; the eviction sweep keeps it near the number of constraining ones. */
  size(): number;
  /**
   * docs/postgresql.md: this instance is number `index` (0-based) of `count` live instances on a shared
   * database, and admits only its share of every budget (shareOf).
   */
  setShare(index: number, count: number): void;
};

/**
 * Instance `index` of `count`'s part of a budget of `limit`: the budget divided evenly, the
 * remainder going one each to the first instances, so the shares add up to exactly `limit` and
 * the instances together never admit more than the budget (a budget smaller than the number of
 * instances leaves the last ones no share: they refuse it).
 */
export function shareOf(limit: number, index: number, count: number): number {
  if (count <= 1) return limit;
  return Math.floor(limit / count) + (index < limit % count ? 1 : 0);
}

export type RateLimiterOptions = { readonly limits: Readonly<Record<BudgetName, BudgetLimit>> | "off" };

/** Most keys are an IP that sends a handful of requests; rings start small and double on demand. */
const INITIAL_SLOTS = 4;
/**
 * Sweep steps per call, plus more per entry the call created. Visiting entries at least twice as
 * fast as they are created means a pass over the map ends, so every idle entry is found within
 * about two passes, and the work per call stays O(1).
 */
const SWEEP_STEPS_PER_CALL = 2;
const SWEEP_STEPS_PER_NEW_ENTRY = 2;

class Entry {
  times: Float64Array;
  /** Index of the oldest admission that still counts. */
  head = 0;
  count = 0;

  constructor(
    readonly windowMs: number,
    slots: number,
  ) {
    this.times = new Float64Array(slots);
  }

  /** Forgets admissions that no longer count; each is forgotten once, so this is amortised O(1). */
  prune(nowMs: number): void {
    const slots = this.times.length;
    while (this.count > 0 && nowMs - this.times[this.head]! >= this.windowMs) {
      this.head = (this.head + 1) % slots;
      this.count -= 1;
    }
  }

  /** Idle = no admission counts any more, so dropping the entry changes no future answer. */
  isIdle(nowMs: number): boolean {
    if (this.count === 0) return true;
    const newest = this.times[(this.head + this.count - 1) % this.times.length]!;
    return nowMs - newest >= this.windowMs;
  }

  push(atMs: number, limit: number): void {
    if (this.count === this.times.length) this.grow(limit);
    this.times[(this.head + this.count) % this.times.length] = atMs;
    this.count += 1;
  }

  /** Doubles the ring, but never past the limit: a full ring of N is all a budget of N needs. */
  private grow(limit: number): void {
    const slots = this.times.length;
    const next = new Float64Array(Math.max(this.count + 1, Math.min(slots * 2, limit)));
    for (let i = 0; i < this.count; i += 1) next[i] = this.times[(this.head + i) % slots]!;
    this.times = next;
    this.head = 0;
  }
}

// Budget names contain no "|", so the text before the first "|" is the budget: ids never collide.
const toEntryId = (check: RateCheck): string => `${check.budget}|${check.key}`;

/** A request that names the same (budget, key) twice draws on it twice, so its earlier uses count. */
const countEarlierUses = (ids: readonly string[], index: number): number => {
  let uses = 0;
  for (let i = 0; i < index; i += 1) if (ids[i] === ids[index]) uses += 1;
  return uses;
};

const checkLimits = (limits: Readonly<Record<BudgetName, BudgetLimit>>): Record<BudgetName, BudgetLimit> => {
  const copy = {} as Record<BudgetName, BudgetLimit>;
  for (const name of BUDGET_NAMES) {
    const limit = limits[name];
    if (!(limit === "off" || (Number.isSafeInteger(limit) && limit >= 1))) {
      throw new RangeError(`rate limit ${name} must be a positive integer, got ${limit}`);
    }
    copy[name] = limit;
  }
  return copy;
};

export const createRateLimiter = (options: RateLimiterOptions): RateLimiter => {
  if (options.limits === "off") {
    return { limited: false, tryAcquire: () => true, observeRefusals: () => {}, size: () => 0, setShare: () => {} };
  }
  const limits = checkLimits(options.limits);
  const anyOff = BUDGET_NAMES.some((name) => limits[name] === "off");
  const entries = new Map<string, Entry>();
  let cursor: Iterator<[string, Entry]> | undefined;
  // The service clock never goes back, but a wall clock can; time held at its high-water mark
  // keeps each ring sorted and lets no backwards step free (or double-count) any budget.
  let latestMs = Number.NEGATIVE_INFINITY;
  let refused: (budget: BudgetName) => void = () => {};
  let share = { index: 0, count: 1 };

  const sweep = (steps: number, nowMs: number): void => {
    for (let step = 0; step < steps; step += 1) {
      cursor ??= entries.entries();
      const next = cursor.next();
      if (next.done) {
        cursor = undefined;
        return;
      }
      // Deleting the entry just visited is safe while a Map iterator is live.
      if (next.value[1].isIdle(nowMs)) entries.delete(next.value[0]);
    }
  };

  const tryAcquire = (all: readonly RateCheck[], nowMs: number): boolean => {
    // A budget that is off admits everything and keeps no entry.
    const checks = anyOff ? all.filter((c) => limits[c.budget] !== "off") : all;
    latestMs = Math.max(latestMs, nowMs);
    const atMs = latestMs;
    const ids = checks.map(toEntryId);
    const caps = checks.map((c) => shareOf(effectiveLimit(c.budget, limits[c.budget] as number, c.multiplier), share.index, share.count));
    // First pass decides without changing any count, so a refusal consumes nothing anywhere.
    for (let i = 0; i < checks.length; i += 1) {
      const entry = entries.get(ids[i]!);
      entry?.prune(atMs);
      if ((entry?.count ?? 0) + countEarlierUses(ids, i) >= caps[i]!) {
        refused(checks[i]!.budget);
        sweep(SWEEP_STEPS_PER_CALL, atMs);
        return false;
      }
    }
    let created = 0;
    for (let i = 0; i < checks.length; i += 1) {
      let entry = entries.get(ids[i]!);
      if (entry === undefined) {
        const windowMs = BUDGETS[checks[i]!.budget].windowMs;
        entry = new Entry(windowMs, Math.min(INITIAL_SLOTS, caps[i]!));
        entries.set(ids[i]!, entry);
        created += 1;
      }
      entry.push(atMs, caps[i]!);
    }
    sweep(SWEEP_STEPS_PER_CALL + SWEEP_STEPS_PER_NEW_ENTRY * created, atMs);
    return true;
  };

  return {
    limited: true,
    tryAcquire,
    observeRefusals: (observer) => {
      refused = observer;
    },
    size: () => entries.size,
    setShare(index, count) {
      share = { index, count };
    },
  };
};
