import { ManualClock, SandboxClock } from "../../src/clock";
import type { Config } from "../../src/deps";
import { createRateLimiter } from "../../src/domain/rate-limits/limiter";
import { defaultLimits, type BudgetName } from "../../src/domain/rate-limits/budgets";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { memoryLog } from "../../src/log";
import { createRuntime } from "../../src/runtime";
import { openStore } from "../../src/store/store";
import { TEST_SEED, TEST_KEY } from "./fixtures";

export const T0 = Date.parse("2026-11-20T09:00:00.000Z");

export type HarnessOptions = {
  seed?: SeedFile;
  /** "off" (default) admits everything; "default" uses product 12's numbers; or overrides. */
  limits?: "off" | "default" | Partial<Record<BudgetName, number>>;
  config?: Partial<Config>;
  /** Set when a test provokes a 500 on purpose. */
  allow500?: boolean;
};

export type Reply = { status: number; headers: Headers; text: string; json: any };

/** A fresh in-memory kasa per test: manual clock, captured log, app.request (DESIGN.md test support). */
export async function harness(opts: HarnessOptions = {}) {
  const store = await openStore(":memory:");
  const clock = new ManualClock(T0);
  const log = memoryLog();
  const limits = opts.limits ?? "off";
  const rateLimiter = createRateLimiter({ limits: limits === "off" ? "off" : { ...defaultLimits(), ...(limits === "default" ? {} : limits) } });
  const config: Config = { mode: "serve", baseUrl: "http://kasa.test", trustProxy: true, allowPrivateWebhooks: true, ...opts.config };
  // Sandbox mode runs on the movable clock over the manual one, as `kasa sandbox` does over the system clock.
  const serviceClock = config.mode === "sandbox" ? new SandboxClock(0, clock) : clock;
  const runtime = createRuntime({ store, clock: serviceClock, config, log, rateLimiter });
  let keyN = 0;
  await applySeed(store, parseSeed(opts.seed ?? TEST_SEED), clock.nowMs(), () => `key_test${++keyN}`);

  async function request(method: string, path: string, init: { body?: unknown; key?: string | null; headers?: Record<string, string>; ip?: string } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...init.headers };
    const key = init.key === undefined ? TEST_KEY : init.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (init.ip) headers["x-forwarded-for"] = init.ip;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await runtime.app.request(`http://kasa.test${path}`, { method, headers, body });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (res.status === 500 && !opts.allow500) throw new Error(`unexpected 500 on ${method} ${path}: ${text}\n${log.lines.join("\n")}`);
    return { status: res.status, headers: res.headers, text, json };
  }

  return {
    store,
    clock,
    log,
    runtime,
    deps: runtime.deps,
    request,
    get: (path: string, init?: Parameters<typeof request>[2]) => request("GET", path, init),
    post: (path: string, body?: unknown, init?: Parameters<typeof request>[2]) => request("POST", path, { ...init, body }),
    del: (path: string, init?: Parameters<typeof request>[2]) => request("DELETE", path, init),
    /** Moves the manual clock and runs every timer now due. */
    async advance(ms: number) {
      clock.advance(ms);
      await runtime.deps.timers.runDue();
    },
    close: async () => {
      await runtime.stop();
      await store.close();
    },
  };
}

export type Harness = Awaited<ReturnType<typeof harness>>;
