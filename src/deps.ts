import type { BankRegistry } from "./bank/banks";
import type { Clock } from "./clock";
import type { PaymentSubscriber } from "./domain/payments/events";
import type { RateLimiter } from "./domain/rate-limits/limiter";
import type { RouteDecisions } from "./domain/routing/decisions";
import type { Ids } from "./ids";
import type { Log } from "./log-port";
import type { Store } from "./store/store";
import type { Timers } from "./timers";

// The Log port lives in its own file so that the store and the banks need not import this one.
export type { Log } from "./log-port";

export type Mode = "serve" | "sandbox";

export type Config = {
  mode: Mode;
  /** Public base URL used in handoffUrl, link urls and the bank's callback. No trailing slash. */
  baseUrl: string;
  trustProxy: boolean;
  allowPrivateWebhooks: boolean;
  /** docs/reconciliation.md: the daily run's minute after Istanbul midnight (`--reconcile-at`); absent or null: no daily run. */
  reconcileAt?: number | null;
};

export type Deps = {
  /** All-or-nothing admission over several rate budgets (docs/contract.md, Rate limits). */
  rateLimiter: RateLimiter;
  store: Store;
  clock: Clock;
  ids: Ids;
  log: Log;
  config: Config;
  timers: Timers;
  /** The bank adapter of each connection (docs/banks.md); card steps call them outside units of work. */
  banks: BankRegistry;
  /**
   * Who hears a payment's in-unit events (domain/payments/events.ts), in this order; handed in
   * at composition (payment-subscribers.ts), so payments never import their subscribers.
   */
  paymentSubscribers: readonly PaymentSubscriber<Deps>[];
  /** Told every router decision (docs/routing.md), for the metric. */
  routeDecisions: RouteDecisions;
};
