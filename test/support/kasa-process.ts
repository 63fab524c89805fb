import { type ManualClock, SandboxClock, type Clock } from "../../src/clock";
import type { Config } from "../../src/deps";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { createRateLimiter } from "../../src/domain/rate-limits/limiter";
import { memoryLog } from "../../src/log";
import { createService } from "../../src/compose";
import { sandboxClockFor } from "../../src/sandbox-clock";
import { openStore } from "../../src/store/open";
import { formClient } from "../../src/http/sandbox/form-client";
import { apiRequester, runtimeControls, type Reply } from "./harness";

// One kasa "process" on a database FILE (or a PostgreSQL URL), for restart tests (refunds, day end) and
// several instances on one database (product 22): open, run, close,
// open again on the same file with the same manual clock. Like harness.ts, an unexpected 500 throws.

export const BASE = "http://kasa.test";

export type ProcessOptions = {
  path: string;
  clock: ManualClock;
  /** Applied on open (first start only). */
  seed?: SeedFile;
  /** "sandbox" runs on a SandboxClock over `clock` whose offset lives in the database (product 13). */
  mode?: Config["mode"];
  /** Where bank adapters send their requests (a bank simulator shared by the processes of a test). */
  bankFetch?: (url: string, init: RequestInit) => Promise<Response>;
};

export async function kasaProcess(opts: ProcessOptions) {
  const store = await openStore(opts.path);
  const mode = opts.mode ?? "serve";
  const clock: Clock = mode === "sandbox" ? await sandboxClockFor(store, opts.clock) : opts.clock;
  if (opts.seed) await applySeed(store, parseSeed(opts.seed), clock.nowMs(), () => `key_${Math.random().toString(36).slice(2)}`);
  const log = memoryLog();
  const config: Config = { mode, baseUrl: BASE, trustProxy: true, allowPrivateWebhooks: true };
  const runtime = await createService({
    store,
    clock,
    config,
    log,
    rateLimiter: createRateLimiter({ limits: "off" }),
    bankFetch: opts.bankFetch,
  });

  const request = apiRequester(runtime.app, log);

  return {
    store,
    clock,
    log,
    ...runtimeControls(runtime, store, opts.clock),
    get: (path: string, init?: { key?: string }) => request("GET", path, init),
    post: (path: string, body?: unknown, init?: { key?: string }) => request("POST", path, { ...init, body }),
  };
}

export type KasaProcess = Awaited<ReturnType<typeof kasaProcess>>;

/** What the capture helper needs: the API and the app (a harness or a process). */
export type Kasa = {
  post(path: string, body?: unknown, init?: { key?: string }): Promise<Reply>;
  runtime: { app: { request(url: string, init: RequestInit): Response | Promise<Response> } };
};

let seq = 0;

/**
 * Create -> handoff -> ACS (code 123456) -> callback: a captured payment, through the same pages a
 * browser without JavaScript uses. Answers the paymentCode.
 */
export async function capture(k: Kasa, o: { amount?: number; terminalId?: string; pan?: string; key?: string } = {}): Promise<string> {
  const created = await k.post(
    "/v1/payments",
    {
      amount: o.amount ?? 10_000,
      partnerTxCode: `rf-order-${++seq}`,
      terminalId: o.terminalId ?? "T-1",
      returnUrl: "https://shop.example/done",
    },
    o.key === undefined ? undefined : { key: o.key },
  );
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  const client = formClient((url, init) => k.runtime.app.request(url, init), [BASE]);
  const card = { paymentRef: created.json.paymentRef, pan: o.pan ?? "4000001100000009", expireMonth: "12", expireYear: "34", cv2: "123" };
  const acs = await client.post(`${BASE}/handoff`, card);
  const form = acs.page?.forms[0];
  if (!form) throw new Error(`no ACS form: ${acs.page?.status} ${acs.page?.body.slice(0, 300)}`);
  const done = await client.submit(form, { otp: "123456" }, "confirm");
  if (!done.leftTo?.includes("status=captured")) throw new Error(`not captured: ${done.leftTo} ${done.page?.body.slice(0, 300)}`);
  return created.json.paymentCode as string;
}
