import { H3, serve } from "h3";
import { DEMO_BINS } from "../../src/bank/test-cards";
import { SandboxClock, systemClock } from "../../src/clock";
import { demoSeed, DEMO_API_KEY } from "../../src/domain/partners/demo-seed";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import { createRateLimiter } from "../../src/domain/rate-limits/limiter";
import { ensureDemoPanelUser } from "../../src/domain/users/demo";
import { memoryLog } from "../../src/log";
import { createService, type Service } from "../../src/compose";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { formClient } from "../../src/http/sandbox/form-client";

// The panel's browser tests run kasa as `kasa sandbox` does: demo seed, simulated bank, the
// movable sandbox clock (so a capture can pass its day end before a partial refund), the demo
// panel admin, over real HTTP on 127.0.0.1.

export type PanelKasa = { baseUrl: string; runtime: Service; password: string; close(): Promise<void> };

export async function startPanelKasa(): Promise<PanelKasa> {
  let runtime: Service | null = null;
  const front = new H3().all("/**", (event) => (runtime ? runtime.app.fetch(event.req) : new Response("starting", { status: 503 })));
  const server = serve(front, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
  await server.ready();
  const origin = new URL(server.url!).origin;
  const store = await openStore(":memory:");
  let n = 0;
  await applySeed(
    store,
    parseSeed(
      demoSeed(
        DEMO_BINS.map((b) => ({ ...b })),
        "http://127.0.0.1:1",
      ),
    ),
    systemClock.nowMs(),
    () => `key_panel_browser_${++n}`,
  );
  runtime = await createService({
    store,
    clock: new SandboxClock(0, systemClock),
    config: { mode: "sandbox", baseUrl: origin, trustProxy: false, allowPrivateWebhooks: true },
    log: memoryLog(),
    rateLimiter: createRateLimiter({ limits: "off" }),
  });
  const started = runtime;
  const password = (await ensureDemoPanelUser(started.deps))!.reveal();
  return {
    baseUrl: origin,
    runtime: started,
    password,
    async close() {
      await server.close(true);
      await started.stop();
      await store.close();
    },
  };
}

export async function api(
  k: PanelKasa,
  method: string,
  path: string,
  body?: unknown,
  key = DEMO_API_KEY,
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${k.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** An API payment paid with the approved test card through the relay and the sim bank's 3D step. */
export async function capturedPayment(k: PanelKasa, partnerTxCode: string, amount: number): Promise<string> {
  const created = await api(k, "POST", "/v1/payments", {
    amount,
    partnerTxCode,
    terminalId: "T-1001",
    returnUrl: "https://shop.example/done",
  });
  if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.json)}`);
  const client = formClient((url, init) => fetch(url, { ...init, redirect: "manual" }), [k.baseUrl]);
  const acs = await client.post(`${k.baseUrl}/handoff`, {
    paymentRef: created.json.paymentRef,
    pan: "4000001100000009",
    expireMonth: "12",
    expireYear: "34",
    cv2: "123",
  });
  const done = await client.submit(acs.page!.forms[0]!, { otp: "123456" }, "confirm");
  if (!done.leftTo?.includes("status=captured")) throw new Error(`not captured: ${done.leftTo}`);
  return created.json.paymentCode as string;
}
