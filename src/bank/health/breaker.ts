// The health of each bank connection (docs/operating.md, Health): a circuit breaker per connection
// id, fed with the technical outcome of every bank call and read by the router, which skips the
// members whose breaker does not admit. It runs on real time, never the sandbox clock: moving the
// sandbox clock a day forward must not close a breaker whose bank is still down. Pure: no I/O,
// no store; one set per process (each kasa instance judges the banks from its own calls).

export interface BreakerSettings {
  /** Technical failures within the window that open the breaker. */
  failures: number;
  windowSeconds: number;
  /** How long an opened breaker refuses before it lets the next attempt try (half-open). */
  cooldownSeconds: number;
}

export const BREAKER_DEFAULTS: Readonly<BreakerSettings> = Object.freeze({ failures: 5, windowSeconds: 60, cooldownSeconds: 30 });

export type BreakerState = "closed" | "open" | "half-open";

/** "success": the bank answered (a decline included); "failure": it did not, or not readably. */
export type CallOutcome = "success" | "failure";

export interface ConnectionHealth {
  /** May an attempt go to this connection now: closed or half-open. */
  admits(connectionId: string): boolean;
  state(connectionId: string): BreakerState;
  record(connectionId: string, outcome: CallOutcome): void;
  /** The connection's settings (the seed's `breaker`), null for the defaults; the state is kept. */
  configure(connectionId: string, settings: BreakerSettings | null): void;
  /** Every connection this process has settings or outcomes for, with its state now. */
  states(): { connectionId: string; state: BreakerState }[];
}

type Breaker = {
  settings: BreakerSettings;
  /** When the failures still inside the window happened (closed breaker), oldest first. */
  failures: number[];
  /** When it last opened, or null while closed. */
  openedAtMs: number | null;
};

/**
 * The rules, in the order `record` applies them:
 * - closed: a failure is kept with its time; failures older than the window are forgotten; when
 *   the failures inside the window reach `failures` the breaker opens. A success leaves the
 *   window as it is (failures inside the window count, not failures in a row).
 * - open: `admits` is false until `cooldownSeconds` have passed since it opened; a failure in
 *   that time changes nothing (calls that were already under way, or calls the breaker does not
 *   gate, such as capture checks and refunds).
 * - half-open (open, cooldown passed): `admits` is true for every attempt until an outcome is
 *   recorded; a failure re-opens it for another cooldown.
 * - a success while open or half-open closes it and clears the window: the bank answered.
 */
export function createConnectionHealth(opts: { nowMs: () => number }): ConnectionHealth {
  const breakers = new Map<string, Breaker>();

  const breakerOf = (id: string): Breaker => {
    let b = breakers.get(id);
    if (!b) {
      b = { settings: BREAKER_DEFAULTS, failures: [], openedAtMs: null };
      breakers.set(id, b);
    }
    return b;
  };

  const stateOf = (b: Breaker | undefined, now: number): BreakerState => {
    if (!b || b.openedAtMs === null) return "closed";
    return now - b.openedAtMs >= b.settings.cooldownSeconds * 1000 ? "half-open" : "open";
  };

  function recordFailure(b: Breaker, now: number): void {
    const state = stateOf(b, now);
    if (state === "open") return;
    if (state === "half-open") {
      b.openedAtMs = now;
      return;
    }
    const since = now - b.settings.windowSeconds * 1000;
    b.failures = b.failures.filter((t) => t > since);
    b.failures.push(now);
    if (b.failures.length >= b.settings.failures) {
      b.openedAtMs = now;
      b.failures = [];
    }
  }

  return {
    admits: (id) => stateOf(breakers.get(id), opts.nowMs()) !== "open",
    state: (id) => stateOf(breakers.get(id), opts.nowMs()),
    record(id, outcome) {
      const b = breakerOf(id);
      const now = opts.nowMs();
      if (outcome === "failure") return recordFailure(b, now);
      if (b.openedAtMs !== null) {
        b.openedAtMs = null;
        b.failures = [];
      }
    },
    configure(id, settings) {
      const b = breakerOf(id);
      const next = settings ?? BREAKER_DEFAULTS;
      const same =
        b.settings.failures === next.failures &&
        b.settings.windowSeconds === next.windowSeconds &&
        b.settings.cooldownSeconds === next.cooldownSeconds;
      if (!same) b.settings = { failures: next.failures, windowSeconds: next.windowSeconds, cooldownSeconds: next.cooldownSeconds };
    },
    states() {
      const now = opts.nowMs();
      return [...breakers].map(([connectionId, b]) => ({ connectionId, state: stateOf(b, now) }));
    },
  };
}
