import { createRouteDecisions } from "./domain/routing/decisions";
import type { H3 } from "h3";
import { createApp as createH3App } from "./app";
import { createBanks } from "./bank/banks";
import type { BankModule } from "./bank/module";
import { BANKS } from "./bank/registry";
import { SandboxClock, type Clock } from "./clock";
import type { Config, Deps, Log } from "./deps";
import { instanceHeartbeat } from "./domain/rate-limits/instances";
import type { RateLimiter } from "./domain/rate-limits/limiter";
import { apiDocsRoutes } from "./http/api-docs";
import { healthRoutes } from "./http/health";
import { pageRoutes } from "./http/page-routes";
import { bankSimulatorPages } from "./http/pages/bank-pages";
import { logRequest, observeRequests, trackInFlight } from "./http/request-log";
import { apiRoutes, sandboxRoutes } from "./http/routes";
import { sandboxBuyer, type SandboxBuyer } from "./http/sandbox/simulate";
import { createIds } from "./ids";
import { invariant } from "./invariant";
import type { Registry } from "./metrics";
import { panelRoutes } from "./panel/routes";
import { CLOCK_OFFSET_KEY, followSandboxClock } from "./sandbox-clock";
import { Sensitive } from "./sensitive";
import { createServiceMetrics } from "./service-metrics";
import type { Store } from "./store/store";
import { TIMER_MODULES } from "./timer-modules";
import { startupTimers, timerPollModule } from "./timer-poll";
import { PAYMENT_SUBSCRIBERS } from "./payment-subscribers";
import { Timers } from "./timers";

// The composition root (docs/architecture.md): the one way to build kasa. `createDeps` gives what
// every service needs (the CLI stops there: `kasa dayend` builds no HTTP app), `createApp` the
// HTTP side over it, `startTimers` the timer wheel; `createService` does all three for servers
// and tests.

export type DepsOptions = {
  store: Store;
  clock: Clock;
  config: Config;
  log: Log;
  rateLimiter: RateLimiter;
  /** The banks connections may name: the registry's list unless a test adds its own. */
  banks?: readonly BankModule[];
  /** How bank adapters reach their bank; tests route it to the app's own simulators. */
  bankFetch?: (url: string, init: RequestInit) => Promise<Response>;
};

/** Store, clock, ids, log, config, rate limiter, timers (not yet started) and the banks: no HTTP. */
export async function createDeps(opts: DepsOptions): Promise<Deps> {
  const timers = new Timers(opts.clock, (kind, key, error) => opts.log.error("timer failed", { kind, key, error }));
  const ids = createIds(opts.clock);
  const modules = opts.banks ?? BANKS;
  // A bank's secret is made once per database, so what it signs survives restarts. Written before
  // any request runs, hence outside the write queue.
  const secrets = new Map<string, Sensitive<string>>();
  for (const bank of modules.filter((b) => b.secret)) {
    const secret = await opts.store.q.secrets.bankSecret(bank.id, ids.secret(`${bank.id}_`).reveal());
    secrets.set(bank.id, new Sensitive(secret));
  }
  return {
    store: opts.store,
    clock: opts.clock,
    ids,
    log: opts.log,
    config: opts.config,
    timers,
    rateLimiter: opts.rateLimiter,
    paymentSubscribers: PAYMENT_SUBSCRIBERS,
    routeDecisions: createRouteDecisions(),
    banks: createBanks(modules, {
      fetch: opts.bankFetch ?? ((input, init) => fetch(input, init)),
      log: opts.log,
      baseUrl: opts.config.baseUrl,
      secrets,
      nowMs: () => opts.clock.nowMs(),
    }),
  };
}

/** Registers every module's timers and rebuilds the wheel from the database (nothing fires yet). */
export async function startTimers(deps: Deps): Promise<void> {
  const modules = [...TIMER_MODULES, timerPollModule(() => TIMER_MODULES, followSandboxClock)];
  for (const m of modules) {
    deps.timers.on(m.kind, m.handler(deps));
    if (deps.store.shared && (m.takeoverAfterMs ?? 0) > 0) deps.timers.countHeld(m.kind);
  }
  await deps.timers.rebuild(modules.map((m) => ({ kind: m.kind, pending: () => startupTimers(m, deps) })));
}

export type AppOptions = {
  /** Serve every bank's simulator outside sandbox mode too (tests); `slowMs` shortens their "no answer" fault. */
  simulators?: { slowMs?: number };
};

export type App = {
  app: H3;
  /** The Prometheus registry a `--metrics-port` listener renders. */
  metrics: Registry;
  /** Resolves once no request is being answered (true), or at the deadline (false). */
  requestsDone(deadlineMs: number): Promise<boolean>;
};

/** The sandbox's own API: the movable clock and the buyer that drives this app. */
function sandboxApi(deps: Deps, clock: SandboxClock, buyer: () => SandboxBuyer) {
  return sandboxRoutes(
    {
      nowMs: () => clock.nowMs(),
      async moveTo(targetMs) {
        const offset = clock.moveTo(targetMs);
        await deps.store.write((tx) => tx.meta.set(CLOCK_OFFSET_KEY, String(offset)));
        await deps.timers.runDue();
      },
    },
    buyer,
  );
}

/** The h3 app: API, pages, panel, health, API docs and the banks' simulators, over `deps`. */
export function createApp(deps: Deps, opts: AppOptions = {}): App {
  const api = apiRoutes(deps);
  // The sandbox buyer drives this very app in-process, once it exists.
  let buyer: SandboxBuyer | undefined;
  if (deps.config.mode === "sandbox" && deps.clock instanceof SandboxClock) {
    api.push(
      ...sandboxApi(deps, deps.clock, () => {
        invariant(buyer !== undefined, "the sandbox buyer exists once the app does");
        return buyer;
      }),
    );
  }
  // The merchant panel sits beside the other pages, on the same pipeline.
  const simulators = bankSimulatorPages(deps, deps.banks.modules, {
    all: deps.config.mode === "sandbox" || opts.simulators !== undefined,
    slowMs: opts.simulators?.slowMs,
  });
  const app = createH3App(deps, api, [
    ...healthRoutes(deps),
    ...apiDocsRoutes(deps),
    ...pageRoutes(deps),
    ...panelRoutes(deps),
    ...simulators,
  ]);
  buyer = sandboxBuyer((url, init) => app.request(url, init), deps.config.baseUrl, deps.banks.modules);
  const metrics = createServiceMetrics(deps);
  observeRequests(app, [logRequest(deps.log), metrics.onRequest]);
  const inFlight = trackInFlight(app);
  return { app, metrics: metrics.registry, requestsDone: (deadlineMs) => inFlight.idle(deadlineMs) };
}

export type Service = App & {
  deps: Deps;
  /** Starts firing timers in real time (servers; tests drive them with runDue). */
  start(): void;
  stop(): Promise<void>;
};

/** createDeps, startTimers and createApp, plus this instance's heartbeat on a shared database. */
export async function createService(opts: DepsOptions & AppOptions): Promise<Service> {
  const deps = await createDeps(opts);
  await startTimers(deps);
  const app = createApp(deps, opts);
  // On a shared database (docs/postgresql.md) this instance admits its share of each budget from the start.
  const heartbeat =
    opts.store.shared && opts.rateLimiter.limited
      ? instanceHeartbeat(opts.store, opts.rateLimiter, opts.log, deps.ids.instanceId())
      : undefined;
  await heartbeat?.beat();
  return {
    ...app,
    deps,
    start: () => deps.timers.start(),
    async stop() {
      await deps.timers.stop();
      await heartbeat?.stop();
    },
  };
}
