import type { Deps } from "./deps";
import type { RequestRecord } from "./http/request-log";
import type { BankRegistry } from "./bank/banks";
import { latestFindingCounts } from "./domain/reconciliation/view";
import { Counter, Histogram, Registry, scraped } from "./metrics";

const LATENCY_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/** A connection's breaker state (docs/operating.md, Health). */
export type BreakerState = ReturnType<BankRegistry["health"]["state"]>;

/** The value of `kasa_bank_breaker_state` for each state: the worse, the higher. */
export const BREAKER_STATE_VALUE: Readonly<Record<BreakerState, number>> = Object.freeze({ closed: 0, "half-open": 1, open: 2 });

/**
 * docs/operating.md's metric families: HTTP requests and latency by route and status, group-commit batch
 * sizes and commit time, webhook outbox depth and attempt outcomes, pending timers by kind,
 * payment and refund transitions, rate-limit refusals by budget, bank calls with latency, each
 * connection's breaker; and
 * prom-client's default process metrics (CPU, memory, event-loop lag), prefixed `kasa_`.
 */
export function createServiceMetrics(deps: Pick<Deps, "store" | "timers" | "rateLimiter" | "banks" | "routeDecisions">): {
  registry: Registry;
  onRequest(r: RequestRecord): void;
} {
  const registry = new Registry();
  const requests = new Counter(registry, "kasa_http_requests_total", "HTTP requests answered, by method, route pattern and status.", [
    "method",
    "route",
    "status",
  ]);
  const latency = new Histogram(
    registry,
    "kasa_http_request_duration_seconds",
    "HTTP request latency by route pattern and status.",
    LATENCY_BUCKETS_S,
    ["route", "status"],
  );
  const batchUnits = new Histogram(registry, "kasa_store_batch_units", "Units of work per group commit.", BATCH_BUCKETS);
  const commit = new Histogram(registry, "kasa_store_commit_seconds", "Time to run and COMMIT one group-commit batch.", LATENCY_BUCKETS_S);
  deps.store.observeBatches((units, ms) => {
    batchUnits.observe(units);
    commit.observe(ms / 1000);
  });
  scraped("gauge", registry, "kasa_webhook_outbox_pending", "Webhook deliveries not yet delivered, failed or dropped.", [], async () => [
    { labels: {}, value: await deps.store.q.metrics.pendingDeliveries() },
  ]);
  scraped("gauge", registry, "kasa_timers_pending", "Timers in the wheel by kind.", ["kind"], () =>
    [...deps.timers.pendingByKind()].map(([kind, value]) => ({ labels: { kind }, value })),
  );
  const counted = (name: string, help: string, family: "payment" | "refund" | "delivery", label: string) =>
    scraped("counter", registry, name, help, [label], async () =>
      (await deps.store.q.metrics.counts(family)).map((c) => ({ labels: { [label]: c.label }, value: c.n })),
    );
  counted("kasa_payment_transitions_total", "Payments entering each status (creation included).", "payment", "status");
  counted("kasa_refund_transitions_total", "Refunds entering each status (creation included).", "refund", "status");
  counted("kasa_webhook_attempts_total", "Webhook delivery attempts by outcome.", "delivery", "outcome");
  scraped(
    "gauge",
    registry,
    "kasa_reconciliation_findings",
    "Findings of each connection's latest reconciliation run, by class.",
    ["connection", "class"],
    async () =>
      (await latestFindingCounts(deps.store.q)).map((f) => ({ labels: { connection: f.connection, class: f.class }, value: f.n })),
  );
  const refusals = new Counter(registry, "kasa_rate_limit_refusals_total", "Requests refused by a rate budget, by budget.", ["budget"]);
  deps.rateLimiter.observeRefusals((budget) => refusals.inc({ budget }));
  const bankCalls = new Counter(registry, "kasa_bank_calls_total", "Bank calls by bank, operation and outcome.", [
    "bank",
    "operation",
    "outcome",
  ]);
  const bankLatency = new Histogram(
    registry,
    "kasa_bank_call_duration_seconds",
    "Bank call latency by bank and operation.",
    LATENCY_BUCKETS_S,
    ["bank", "operation"],
  );
  deps.banks.observeCalls((c) => {
    bankCalls.inc({ bank: c.bank, operation: c.operation, outcome: c.outcome });
    bankLatency.observe(c.ms / 1000, { bank: c.bank, operation: c.operation });
  });
  const routes = new Counter(
    registry,
    "kasa_route_decisions_total",
    "Router decisions by router, rule and serving member (none: refused).",
    ["terminal", "rule", "member"],
  );
  deps.routeDecisions.observe((d) => routes.inc({ terminal: d.terminal, rule: d.rule, member: d.member ?? "none" }));
  // Every connection of the database, as this process's breaker judges it now (docs/operating.md, Health).
  scraped(
    "gauge",
    registry,
    "kasa_bank_breaker_state",
    "Breaker of each bank connection: 0 closed, 1 half-open, 2 open.",
    ["connection"],
    async () =>
      (await deps.store.q.catalog.connections()).map((c) => ({
        labels: { connection: c.id },
        value: BREAKER_STATE_VALUE[deps.banks.health.state(c.id)],
      })),
  );
  return {
    registry,
    onRequest(r) {
      requests.inc({ method: r.method, route: r.route, status: String(r.status) });
      latency.observe(r.ms / 1000, { route: r.route, status: String(r.status) });
    },
  };
}
