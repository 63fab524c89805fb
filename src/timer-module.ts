import type { Deps } from "./deps";
import type { PendingTimer, TimerHandler, TimerSource } from "./timers";

/**
 * Each kind of timer: its handler and where its pending instances live in the database (the
 * wheel is rebuilt from these at start; docs/architecture.md, The timer wheel). The type lives apart from the
 * list of modules (timer-modules.ts), so a domain file that defines a module imports only this
 * and never, through the list, every other module.
 */
export type TimerModule = {
  kind: string;
  handler(deps: Deps): TimerHandler;
  pending(deps: Deps): ReturnType<TimerSource["pending"]>;
  /** timer-poll.ts: false for kinds with a poll of their own (the webhook sweep). */
  polled?: boolean;
  /**
   * What the poll of a shared database asks for (docs/postgresql.md), when the kind's pending rows
   * can be many (open links, initiated payments): at most `limit` rows due by `nowMs`. Without it
   * the poll reads `pending`.
   */
  due?(deps: Deps, nowMs: number, limit: number): Promise<PendingTimer[]>;
  /** How long past due another instance waits before taking a row (bank follow-ups; docs/postgresql.md). */
  takeoverAfterMs?: number;
};
