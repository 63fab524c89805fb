// The sandbox's simulated outages (docs/operating.md, Health): `POST /sandbox/connections/{id}/outage`
// makes one connection's bank calls fail technically for some seconds of real time, so an
// integrator can watch its breaker open and a router fail over. On real time like the breaker:
// moving the sandbox clock neither ends nor lengthens an outage.

export interface Outages {
  /** Starts (or replaces) the connection's outage for `seconds` from now; 0 ends it. */
  set(connectionId: string, seconds: number): void;
  /** When the connection's outage ends (real epoch ms), or null when it has none now. */
  until(connectionId: string): number | null;
}

export function createOutages(opts: { nowMs: () => number }): Outages {
  const ends = new Map<string, number>();
  return {
    set(id, seconds) {
      if (seconds <= 0) ends.delete(id);
      else ends.set(id, opts.nowMs() + seconds * 1000);
    },
    until(id) {
      const end = ends.get(id);
      if (end === undefined) return null;
      if (end > opts.nowMs()) return end;
      ends.delete(id);
      return null;
    },
  };
}
