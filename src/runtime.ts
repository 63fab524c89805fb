import type { H3 } from "h3";
import { createApp } from "./app";
import { createEstSimulator, EST_SIM_ACCOUNT } from "./bank/est-sim/simulator";
import { createBankRegistry } from "./bank/registry";
import { estSimPages } from "./http/pages/sim-est";
import { createSimBank } from "./bank/sim/sim-bank";
import { SandboxClock, type Clock } from "./clock";
import type { Config, Deps, Log } from "./deps";
import { instanceHeartbeat } from "./domain/rate-limits/instances";
import type { RateLimiter } from "./domain/rate-limits/limiter";
import { healthRoutes } from "./http/health";
import { pageRoutes } from "./http/page-routes";
import { logRequest, observeRequests, trackInFlight } from "./http/request-log";
import { apiDocsRoutes } from "./http/api-docs";
import { panelRoutes } from "./panel/routes";
import { apiRoutes, sandboxRoutes } from "./http/routes";
import { sandboxBuyer, type SandboxBuyer } from "./http/sandbox/simulate";
import { invariant } from "./invariant";
import { createIds } from "./ids";
import type { Registry } from "./metrics";
import { Sensitive } from "./sensitive";
import { createServiceMetrics } from "./service-metrics";
import type { Store } from "./store/store";
import { PAYMENT_SUBSCRIBERS } from "./payment-subscribers";
import { TIMER_MODULES } from "./timer-modules";
import { startupTimers, timerPollModule } from "./timer-poll";
import { Timers } from "./timers";

export type Runtime = {
  deps: Deps;
  app: H3;
  /** product 19: the Prometheus registry a `--metrics-port` listener renders. */
  metrics: Registry;
  /** Starts firing timers in real time (servers; tests drive them with runDue). */
  start(): void;
  /** Resolves once no request is being answered (true), or at the deadline (false). */
  requestsDone(deadlineMs: number): Promise<boolean>;
  stop(): Promise<void>;
};

export type RuntimeOptions = {
  store: Store;
  clock: Clock;
  config: Config;
  log: Log;
  rateLimiter: RateLimiter;
  /** How bank adapters reach their bank; tests route it to the app's own EST simulator. */
  bankFetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Serve the EST simulator under /sim-est/ (product 17): the sandbox does; tests may in serve mode. */
  estSimulator?: { slowMs?: number };
};

const CLOCK_OFFSET_KEY = "sandbox.clock_offset_ms";
const SIM_SECRET_KEY = "sim.secret";

/** Sandbox mode runs on a movable clock whose offset lives in the database (product 13, 16). */
export async function sandboxClockFor(store: Store, base?: Clock): Promise<SandboxClock> {
  return new SandboxClock(Number((await store.q.meta.get(CLOCK_OFFSET_KEY)) ?? "0"), base);
}

/**
 * Product 22: a sandbox instance on a shared database adopts a clock move another instance made
 * (the offset in the database is larger than its own); the clock never moves back.
 */
async function followSandboxClock(deps: Deps): Promise<void> {
  if (!(deps.clock instanceof SandboxClock)) return;
  const stored = Number((await deps.store.q.meta.get(CLOCK_OFFSET_KEY)) ?? "0");
  if (stored > deps.clock.offset) deps.clock.moveTo(deps.clock.nowMs() + (stored - deps.clock.offset));
}

/** The composition root: every module's routes, pages and timers, wired to one Deps. */
export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const timers = new Timers(opts.clock, (kind, key, error) => opts.log.error("timer failed", { kind, key, error }));
  const ids = createIds(opts.clock);
  // One secret per database, made on first start, so ACS tokens and bank references survive restarts.
  // Written before any request runs, hence outside the write queue.
  const simSecret = await opts.store.q.meta.setOnce(SIM_SECRET_KEY, ids.secret("sim_").reveal());
  const deps: Deps = {
    store: opts.store,
    clock: opts.clock,
    ids,
    log: opts.log,
    config: opts.config,
    timers,
    rateLimiter: opts.rateLimiter,
    paymentSubscribers: PAYMENT_SUBSCRIBERS,
    banks: createBankRegistry(createSimBank({ secret: new Sensitive(simSecret), baseUrl: opts.config.baseUrl }), {
      fetch: opts.bankFetch ?? ((input, init) => fetch(input, init)),
      log: opts.log,
    }),
  };
  const api = apiRoutes(deps);
  // The sandbox buyer (product 21) drives this very app in-process, once it exists.
  let buyer: SandboxBuyer | undefined;
  if (opts.config.mode === "sandbox" && opts.clock instanceof SandboxClock) {
    const clock = opts.clock;
    api.push(
      ...sandboxRoutes(
        {
          nowMs: () => clock.nowMs(),
          async moveTo(targetMs) {
            const offset = clock.moveTo(targetMs);
            await opts.store.write((tx) => tx.meta.set(CLOCK_OFFSET_KEY, String(offset)));
            await timers.runDue();
          },
        },
        () => {
          invariant(buyer !== undefined, "the sandbox buyer exists once the app does");
          return buyer;
        },
      ),
    );
  }
  const modules = [...TIMER_MODULES, timerPollModule(() => TIMER_MODULES, followSandboxClock)];
  for (const m of modules) {
    timers.on(m.kind, m.handler(deps));
    if (opts.store.shared && (m.takeoverAfterMs ?? 0) > 0) timers.countHeld(m.kind);
  }
  await timers.rebuild(modules.map((m) => ({ kind: m.kind, pending: () => startupTimers(m, deps) })));
  // product 18: the merchant panel sits beside the other pages, on the same pipeline.
  // product 17: the sandbox also plays an EST bank (terminal T-3001's connection points here).
  const estSim =
    opts.config.mode === "sandbox" || opts.estSimulator
      ? estSimPages(
          createEstSimulator({
            accounts: [EST_SIM_ACCOUNT],
            nowMs: () => opts.clock.nowMs(),
            nonce: ids.nonce,
            slowMs: opts.estSimulator?.slowMs,
          }),
        )
      : [];
  const app = createApp(deps, api, [...healthRoutes(deps), ...apiDocsRoutes(deps), ...pageRoutes(deps), ...panelRoutes(deps), ...estSim]);
  buyer = sandboxBuyer((url, init) => app.request(url, init), opts.config.baseUrl);
  const metrics = createServiceMetrics(deps);
  observeRequests(app, [logRequest(opts.log), metrics.onRequest]);
  const inFlight = trackInFlight(app);
  // Product 22: on a shared database this instance admits its share of each budget from the start.
  const heartbeat =
    opts.store.shared && opts.rateLimiter.limited ? instanceHeartbeat(opts.store, opts.rateLimiter, opts.log, ids.instanceId()) : undefined;
  await heartbeat?.beat();
  return {
    deps,
    app,
    metrics: metrics.registry,
    start: () => timers.start(),
    requestsDone: (deadlineMs) => inFlight.idle(deadlineMs),
    async stop() {
      await timers.stop();
      await heartbeat?.stop();
    },
  };
}
