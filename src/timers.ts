import { wallNowMs, type Clock } from "./clock";
import { TIMER_BATCH_SIZE, TIMER_MAX_IN_FLIGHT } from "./limits";
import { TimerHeap } from "./timer-heap";

/**
 * The timer wheel: what is due when (payment and link expiry, webhook attempts, day end).
 * The database is the truth; the wheel is rebuilt from it at start (`rebuild` sources) and
 * every handler re-checks its row, so a stale or duplicate timer does nothing (at-least-once).
 */
export type TimerHandler = (key: string, dueAtMs: number) => Promise<void>;
export type PendingTimer = { key: string; dueAtMs: number };
/**
 * Where one kind's pending timers live: an array read at once, or (the webhook outbox) pages read
 * one after another. Kept apart from the rows so a million rows cost no object or promise each.
 */
export type TimerSource = {
  kind: string;
  pending(): Iterable<PendingTimer> | Promise<Iterable<PendingTimer>> | AsyncIterable<PendingTimer>;
};
export type TimerErrorSink = (kind: string, key: string, error: unknown) => void;

const HEARTBEAT_MS = 1_000;

export class Timers {
  private readonly heap = new TimerHeap();
  private readonly handlers = new Map<string, TimerHandler>();
  private readonly cancelledUpTo = new Map<string, number>();
  private seq = 0;
  private armed: ReturnType<typeof setTimeout> | undefined;
  private armedFor = Number.POSITIVE_INFINITY;
  private readonly inflight = new Set<Promise<void>>();
  /** Resolvers of the runs waiting for any in-flight handler to settle (see `anySettled`). */
  private settleWaiters: Array<() => void> = [];
  private live = false;
  /** Kinds whose timers are counted per key, scheduled or running (`holds`); key -> count. */
  private readonly held = new Map<string, Map<string, number>>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Wall-clock instant the loop last found nothing more due (docs/operating.md's /readyz timer check). */
  lastRanAtMs: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly onError: TimerErrorSink,
  ) {}

  get size(): number {
    return this.heap.size;
  }

  /** Timers in the wheel by kind (cancelled ones count until they are popped). */
  pendingByKind(): Map<string, number> {
    return this.heap.kindCounts();
  }

  on(kind: string, handler: TimerHandler): void {
    this.handlers.set(kind, handler);
  }

  /**
   * Counts this kind's timers per key from now on, so `holds` can tell (docs/postgresql.md: the poll of a
   * shared database hands over only what this instance is not already doing). Meant for kinds with
   * few rows at a time: a count per key costs memory the big kinds (expiries, webhooks) do without.
   */
  countHeld(kind: string): void {
    if (!this.held.has(kind)) this.held.set(kind, new Map());
  }

  /** Whether a timer of (kind, key) is scheduled or its handler running; only for counted kinds. */
  holds(kind: string, key: string): boolean {
    return (this.held.get(kind)?.get(key) ?? 0) > 0;
  }

  private count(kind: string, key: string, delta: number): void {
    const keys = this.held.get(kind);
    if (keys === undefined) return;
    const n = (keys.get(key) ?? 0) + delta;
    if (n > 0) keys.set(key, n);
    else keys.delete(key);
  }

  schedule(kind: string, key: string, dueAtMs: number): void {
    this.count(kind, key, 1);
    this.heap.push(dueAtMs, ++this.seq, kind, key);
    if (this.live && dueAtMs < this.armedFor) this.arm();
  }

  /** Drops every timer of (kind, key) scheduled so far; a later schedule() counts again. */
  cancel(kind: string, key: string): void {
    this.cancelledUpTo.set(`${kind}\u0000${key}`, this.seq);
  }

  nextDueAtMs(): number | undefined {
    return this.heap.peekDue();
  }

  /** Pops the due timers in (dueAtMs, scheduling) order, at most `max`. */
  takeDue(nowMs: number, max = TIMER_BATCH_SIZE): Array<{ kind: string; key: string; dueAtMs: number }> {
    const out: Array<{ kind: string; key: string; dueAtMs: number }> = [];
    while (out.length < max) {
      const next = this.heap.peekDue();
      if (next === undefined || next > nowMs) break;
      const t = this.heap.pop()!;
      const id = `${t.kind}\u0000${t.key}`;
      const cut = this.cancelledUpTo.get(id);
      if (cut !== undefined && t.seq <= cut) {
        this.count(t.kind, t.key, -1);
        continue;
      }
      out.push({ kind: t.kind, key: t.key, dueAtMs: t.dueAtMs });
    }
    return out;
  }

  /** Loads every pending timer from the database (start-up). */
  async rebuild(sources: TimerSource[]): Promise<void> {
    for (const { kind, pending } of sources) {
      const timers = await pending();
      if (Symbol.asyncIterator in timers) for await (const t of timers) this.schedule(kind, t.key, t.dueAtMs);
      else for (const t of timers) this.schedule(kind, t.key, t.dueAtMs);
    }
  }

  /**
   * Runs everything due now (and whatever that schedules as due) and resolves once no handler is
   * in flight. Several runs may overlap (the real-time timer and a sandbox clock move): each due
   * timer is popped by exactly one of them, and handlers start without waiting for slower ones,
   * so a hanging webhook receiver (bounded by its own deadline) never delays an expiry.
   * `untilIdle` false (the real-time timer) returns once nothing is due, without waiting for
   * handlers: their follow-up timers arm the wheel again, so runs never pile up under load.
   */
  async runDue(untilIdle = true): Promise<void> {
    for (;;) {
      const due = this.takeDue(this.clock.nowMs());
      if (due.length === 0) {
        this.lastRanAtMs = wallNowMs();
        if (!untilIdle || this.inflight.size === 0) break;
        // Something still runs; it may schedule follow-up timers that are already due.
        await this.anySettled();
        continue;
      }
      for (const t of due) this.track(this.fire(t.kind, t.key, t.dueAtMs));
      // Let requests and group commits through between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.inflight.size >= TIMER_MAX_IN_FLIGHT) await this.anySettled();
    }
    if (this.live) this.arm();
  }

  /** Real time: fire timers as they come due. Sandbox clock moves call runDue() themselves. */
  start(): void {
    this.live = true;
    this.arm();
    // One beat at once, so /readyz answers 200 from the start instead of after the first second.
    void this.runDue(false);
    // A beat every second even when nothing is due, so /readyz can tell an idle loop from a stalled one.
    this.heartbeat = setInterval(() => void this.runDue(false), HEARTBEAT_MS);
    (this.heartbeat as { unref?: () => void }).unref?.();
  }

  async stop(): Promise<void> {
    this.live = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (this.armed) clearTimeout(this.armed);
    this.armed = undefined;
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  private track(p: Promise<void>): void {
    const tracked = p.finally(() => {
      this.inflight.delete(tracked);
      const waiters = this.settleWaiters;
      this.settleWaiters = [];
      for (const wake of waiters) wake();
    });
    this.inflight.add(tracked);
  }

  /**
   * Resolves when any in-flight handler settles. Promise.race over the whole set would subscribe
   * to every in-flight promise on each call, O(in flight) per wake-up (issue 11: a quarter of the
   * server's CPU under steady webhook traffic).
   */
  private anySettled(): Promise<void> {
    return new Promise<void>((resolve) => this.settleWaiters.push(resolve));
  }

  private async fire(kind: string, key: string, dueAtMs: number): Promise<void> {
    const handler = this.handlers.get(kind);
    try {
      if (!handler) throw new Error(`no handler for timer kind ${kind}`);
      await handler(key, dueAtMs);
    } catch (error) {
      this.onError(kind, key, error);
    } finally {
      this.count(kind, key, -1);
    }
  }

  private arm(): void {
    if (this.armed) clearTimeout(this.armed);
    this.armed = undefined;
    const next = this.heap.peekDue();
    this.armedFor = next ?? Number.POSITIVE_INFINITY;
    if (next === undefined) return;
    // setTimeout takes at most 2^31-1 ms; a far timer is re-armed when that fires.
    const delay = Math.min(Math.max(0, next - this.clock.nowMs()), 2_147_483_647);
    this.armed = setTimeout(() => {
      this.armed = undefined;
      this.armedFor = Number.POSITIVE_INFINITY;
      // Real time needs no wait for idle: a handler's follow-up timer arms the wheel again.
      void this.runDue(false);
    }, delay);
    // The process should not stay alive only for a timer (CLI commands open the app too).
    (this.armed as { unref?: () => void }).unref?.();
  }
}
