/**
 * Helpers shared by the webhook tests: point a partner at a receiver, queue events the way the
 * domain does (enqueueWebhook inside a unit), read the outbox, and open a runtime on a file
 * database so a test can stop and start "the server" (restart tests).
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { ManualClock, SandboxClock, type Clock } from "../../../src/clock";
import type { Config } from "../../../src/deps";
import { applySeed, parseSeed } from "../../../src/domain/partners/seed";
import { createRateLimiter } from "../../../src/domain/rate-limits/limiter";
import { enqueueWebhook, WEBHOOK_TIMER, type OutboxEvent } from "../../../src/domain/webhooks/outbox";
import { createWebhookWorker, type WorkerOptions } from "../../../src/domain/webhooks/worker";
import { memoryLog } from "../../../src/log";
import { createService, type Service } from "../../../src/compose";
import { openSqliteStore as openStore } from "../../../src/store/sqlite/sqlite-store";
import type { Store } from "../../../src/store/store";
import { TEST_SEED } from "../../support/fixtures";
import { harness, runtimeControls, T0, type Harness } from "../../support/harness";
import { startReceiver, type Receiver } from "./receiver";

export const SECRET = "whsec_test_secret";

/** One receiver for the whole test file, emptied before each test; `use` gets it once it listens. */
export function useReceiver(use: (receiver: Receiver) => void): void {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver({ secret: SECRET });
    use(receiver);
  });
  afterAll(async () => receiver.close());
  beforeEach(() => receiver.reset());
}

/** useReceiver, plus a fresh harness per test whose partner ptn_test delivers to the receiver. */
export function useReceiverHarness(use: (ready: { receiver: Receiver; h: Harness }) => void): void {
  let receiver: Receiver;
  let h: Harness;
  useReceiver((r) => (receiver = r));
  beforeEach(async () => {
    h = await harness();
    await setWebhook(h, "ptn_test", receiver.url);
    use({ receiver, h });
  });
  afterEach(async () => h.close());
}

type Parts = { store: Store; clock: Clock; deps: Service["deps"] };

/** The partner's current webhook settings (product 11: read at send time). */
export async function setWebhook(h: Parts, partnerId: string, url: string | null, secret: string | null = SECRET): Promise<void> {
  await h.store.write(async (tx) => {
    const partner = await tx.partners.get(partnerId);
    if (!partner) throw new Error(`no partner ${partnerId}`);
    await tx.partners.upsert({ ...partner, webhookUrl: url, webhookSecret: secret });
  });
}

/** Queues one event as a domain function would, in its own unit; returns the delivery id (or null). */
export async function enqueue(h: Parts, event: OutboxEvent, partnerId = "ptn_test"): Promise<string | null> {
  return h.store.write(async (tx) => await enqueueWebhook(tx, h.deps, partnerId, event, h.clock.nowMs()));
}

export async function enqueueOk(
  h: Parts,
  event: OutboxEvent = { type: "payment.captured", paymentCode: "pay_1" },
  partnerId = "ptn_test",
): Promise<string> {
  const id = await enqueue(h, event, partnerId);
  if (id === null) throw new Error("nothing was queued");
  return id;
}

export const delivery = async (h: Parts, id: string) => await h.store.q.webhooks.get(id);
export const attempts = async (h: Parts, id: string) => await h.store.q.webhooks.attempts(id);

/** Replaces the runtime's worker with one using test options (a short timeout, a fake resolver). */
export function useWorker(h: Parts, options: WorkerOptions) {
  const worker = createWebhookWorker(h.deps, options);
  h.deps.timers.on(WEBHOOK_TIMER, worker.handle);
  return worker;
}

export type Server = Parts & { runtime: Service; close(): Promise<void>; runDue(): Promise<void>; advance(ms: number): Promise<void> };

export type ServerOptions = {
  clock?: ManualClock;
  config?: Partial<Config>;
  seed?: boolean;
  /** Runs on a sandbox clock over the manual one, so the runtime wires POST /sandbox/clock (product 13). */
  sandboxClock?: boolean;
};

/** "Starts the server" on a database file: what `kasa serve` does, minus HTTP and the real clock. */
export async function startServer(path: string, opts: ServerOptions = {}): Promise<Server> {
  const store = await openStore(path);
  const manual = opts.clock ?? new ManualClock(T0);
  const clock: Clock = opts.sandboxClock ? new SandboxClock(0, manual) : manual;
  if (opts.seed) await applySeed(store, parseSeed(TEST_SEED), clock.nowMs(), () => `key_${Math.random().toString(36).slice(2)}`);
  const config: Config = { mode: "serve", baseUrl: "http://kasa.test", trustProxy: true, allowPrivateWebhooks: true, ...opts.config };
  const runtime = await createService({ store, clock, config, log: memoryLog(), rateLimiter: createRateLimiter({ limits: "off" }) });
  return { store, clock, ...runtimeControls(runtime, store, manual) };
}
