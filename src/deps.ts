import type { Clock } from "./clock";
import type { Ids } from "./ids";
import type { Store } from "./store/store";
import type { Timers } from "./timers";

/** Domain code logs through this, never through consola directly (DESIGN.md dependency direction). */
export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export type Mode = "serve" | "sandbox";

export type Config = {
  mode: Mode;
  /** Public base URL used in handoffUrl, link urls and the bank's callback. No trailing slash. */
  baseUrl: string;
  trustProxy: boolean;
  allowPrivateWebhooks: boolean;
};

/** All-or-nothing admission over several rate budgets (domain/rate-limits, product 12). */
export interface RateLimiter {
  tryAcquire(checks: Array<{ budget: string; key: string; multiplier?: number }>, nowMs: number): boolean;
}

export type Deps = {
  rateLimiter: RateLimiter;
  store: Store;
  clock: Clock;
  ids: Ids;
  log: Log;
  config: Config;
  timers: Timers;
};
