import { inject } from "vitest";
import type { BankModule } from "../../src/bank/module";
import { ManualClock, SandboxClock } from "../../src/clock";
import type { Config, Deps } from "../../src/deps";
import type { TimerModule } from "../../src/timer-module";
import { createRateLimiter } from "../../src/domain/rate-limits/limiter";
import { defaultLimits, type BudgetName } from "../../src/domain/rate-limits/budgets";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { createJsonLog, memoryLog } from "../../src/log";
import { createService, type Service } from "../../src/compose";
import { openSqliteStore as openStore, type SqliteStore as OpenedStore } from "../../src/store/sqlite/sqlite-store";
import { openPostgresStore } from "../../src/store/postgres/pg-store";
import { reusableDatabase } from "./pg-cluster";
import type { Store } from "../../src/store/store";
import { TEST_SEED, TEST_KEY } from "./fixtures";
import { checkAgainstOpenApi } from "./openapi-check";

export const T0 = Date.parse("2026-11-20T09:00:00.000Z");

export type HarnessOptions = {
  seed?: SeedFile;
  /** "off" (default) admits everything; "default" uses product 12's numbers; or overrides. */
  limits?: "off" | "default" | Partial<Record<BudgetName, number>>;
  config?: Partial<Config>;
  /** Set when a test provokes a 500 on purpose. */
  allow500?: boolean;
  /** Also write the service log as product 19's JSON lines into this array. */
  jsonLog?: string[];
  /**
   * Product 17: serve the EST simulator in-process and route the bank adapters' requests to it
   * (through `transport` when given, which may delay, drop or rewrite them).
   */
  estSim?: { slowMs?: number; transport?: (url: string, init: RequestInit, send: () => Promise<Response>) => Promise<Response> };
  /** The banks this kasa knows (the seed file and the app): the registry's list unless a test adds its own. */
  banks?: readonly BankModule[];
};

export type Reply = { status: number; headers: Headers; text: string; json: any };

/** How a test sends one request: a JSON (or raw string) body, a key (TEST_KEY unless told; null = none), a client ip. */
export type RequestOptions = { body?: unknown; key?: string | null; headers?: Record<string, string>; ip?: string };

type App = { request(url: string, init: RequestInit): Response | Promise<Response> };

/**
 * Requests to an in-process app as a partner sends them; shared by harness() and kasaProcess().
 * An unexpected 500 throws with the captured log, so a crash never passes as an answer.
 */
export function apiRequester(app: App, log: { lines: string[] }, allow500 = false) {
  return async function request(method: string, path: string, init: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...init.headers };
    const key = init.key === undefined ? TEST_KEY : init.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (init.ip) headers["x-forwarded-for"] = init.ip;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.request(`http://kasa.test${path}`, { method, headers, body });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (res.status === 500 && !allow500) throw new Error(`unexpected 500 on ${method} ${path}: ${text}\n${log.lines.join("\n")}`);
    // Issue 21: every answer matches the OpenAPI description of its operation.
    if (json !== undefined || res.status === 204) checkAgainstOpenApi(method, path.split("?")[0]!, res.status, res.headers, json);
    return { status: res.status, headers: res.headers, text, json };
  };
}

/** What every in-process kasa of the tests offers besides its API: timers, the manual clock, stop. */
export function runtimeControls(runtime: Service, store: Store, manual: ManualClock) {
  return {
    runtime,
    deps: runtime.deps,
    runDue: () => runtime.deps.timers.runDue(),
    /** Moves the manual clock and runs every timer now due. */
    async advance(ms: number) {
      manual.advance(ms);
      await runtime.deps.timers.runDue();
    },
    async close() {
      await runtime.stop();
      await store.close();
    },
  };
}

/**
 * The store a harness runs on: in-memory SQLite, or (the `api-pg` project sets KASA_TEST_STORE,
 * issue 23) a database on the run's PostgreSQL cluster of its own. Making a database costs a fifth
 * of a second, so a worker keeps the ones its harnesses closed, emptied (every table, as new), and
 * hands them out again. The PostgreSQL store is typed as the SQLite one only so that the few
 * SQLite-only tests (query plans, file scans) compile; the api-pg project leaves those out.
 */
const idleDatabases: Array<Awaited<ReturnType<typeof reusableDatabase>>> = [];

async function testStore(): Promise<OpenedStore> {
  if (process.env.KASA_TEST_STORE !== "postgres") return await openStore(":memory:");
  const db = idleDatabases.pop() ?? (await reusableDatabase(inject("pgUrl")));
  const store = await openPostgresStore(db.url);
  const close = store.close.bind(store);
  return Object.assign(store, {
    async close() {
      await close();
      await db.empty();
      idleDatabases.push(db);
    },
  }) as unknown as OpenedStore;
}

/** A fresh in-memory kasa per test: manual clock, captured log, app.request (DESIGN.md test support). */
export async function harness(opts: HarnessOptions = {}) {
  const store = await testStore();
  const clock = new ManualClock(T0);
  const log = memoryLog();
  const limits = opts.limits ?? "off";
  const rateLimiter = createRateLimiter({
    limits: limits === "off" ? "off" : { ...defaultLimits(), ...(limits === "default" ? {} : limits) },
  });
  const config: Config = { mode: "serve", baseUrl: "http://kasa.test", trustProxy: true, allowPrivateWebhooks: true, ...opts.config };
  // Sandbox mode runs on the movable clock over the manual one, as `kasa sandbox` does over the system clock.
  const serviceClock = config.mode === "sandbox" ? new SandboxClock(0, clock) : clock;
  const json = opts.jsonLog ? createJsonLog((line) => void opts.jsonLog!.push(line)) : undefined;
  const runtimeLog = json ? { info: tee("info"), warn: tee("warn"), error: tee("error") } : log;
  function tee(level: "info" | "warn" | "error") {
    return (m: string, f?: Record<string, unknown>) => (log[level](m, f), json![level](m, f));
  }
  const estSim = opts.estSim;
  // In-process, so the adapter's timeout is honoured here as fetch would honour it.
  const toApp = (url: string, init: RequestInit): Promise<Response> =>
    new Promise((resolve, reject) => {
      const signal = init.signal;
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      Promise.resolve(runtime.app.request(url, init)).then(resolve, reject);
    });
  const runtime = await createService({
    store,
    clock: serviceClock,
    config,
    log: runtimeLog,
    rateLimiter,
    banks: opts.banks,
    ...(estSim && {
      simulators: { slowMs: estSim.slowMs },
      bankFetch: (url: string, init: RequestInit) =>
        estSim.transport ? estSim.transport(url, init, () => toApp(url, init)) : toApp(url, init),
    }),
  });
  let keyN = 0;
  const banks = runtime.deps.banks.modules;
  await applySeed(store, parseSeed(opts.seed ?? TEST_SEED, banks), clock.nowMs(), () => `key_test${++keyN}`, banks);

  const request = apiRequester(runtime.app, log, opts.allow500);

  return {
    store,
    clock,
    log,
    /** Page flows honour it too (form-client's guard). */
    allow500: opts.allow500 ?? false,
    ...runtimeControls(runtime, store, clock),
    request,
    get: (path: string, init?: RequestOptions) => request("GET", path, init),
    post: (path: string, body?: unknown, init?: RequestOptions) => request("POST", path, { ...init, body }),
    del: (path: string, init?: RequestOptions) => request("DELETE", path, init),
  };
}

export type Harness = Awaited<ReturnType<typeof harness>>;

/** A timer module's pending instances as an array (its source may be paged, product 19). */
export async function pendingTimers(m: TimerModule, deps: Deps): Promise<Array<{ key: string; dueAtMs: number }>> {
  const out: Array<{ key: string; dueAtMs: number }> = [];
  for await (const t of await m.pending(deps)) out.push(t);
  return out;
}
