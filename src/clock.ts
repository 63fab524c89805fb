/**
 * The only place that reads the wall clock. Everything else asks a Clock, so tests run on a
 * manual clock and the sandbox runs on a movable one.
 */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** Tests: time moves only when told. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  nowMs(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * Sandbox (docs/contract.md, The sandbox): the system clock plus an offset that only grows. The offset is kept in
 * the database by the caller, so a restart keeps sandbox time.
 */
export class SandboxClock implements Clock {
  constructor(
    private offsetMs: number,
    private readonly base: Clock = systemClock,
  ) {}
  nowMs(): number {
    return this.base.nowMs() + this.offsetMs;
  }
  get offset(): number {
    return this.offsetMs;
  }
  /** Moves to `targetMs`; refuses to go back. Returns the new offset. */
  moveTo(targetMs: number): number {
    const now = this.nowMs();
    if (targetMs < now) throw new RangeError("the sandbox clock never moves back");
    this.offsetMs += targetMs - now;
    return this.offsetMs;
  }
}

/** The current wall-clock instant; for process-level timing (logs, start-up), never business time. */
export const wallNowMs = (): number => Date.now();
