import { H3, serve } from "h3";
import { DEMO_BINS } from "../../src/bank/test-cards";
import { systemClock } from "../../src/clock";
import { demoSeed } from "../../src/domain/partners/demo-seed";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import { createRateLimiter } from "../../src/domain/rate-limits/limiter";
import { memoryLog } from "../../src/log";
import { createService, type Service } from "../../src/compose";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import type { Store } from "../../src/store/store";

// Real HTTP for the browser tests: kasa as `kasa sandbox` runs it (demo seed, simulated bank,
// h3's own `serve`), on 127.0.0.1 and a port the OS picks, and a tiny stand-in for the partner's
// shop on another port, where redirectUrl leads.

type Server = ReturnType<typeof serve>;

const listen = async (app: H3): Promise<{ server: Server; origin: string }> => {
  const server = serve(app, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
  await server.ready();
  const url = server.url;
  if (!url) throw new Error("server has no url after ready()");
  return { server, origin: new URL(url).origin };
};

export type Kasa = { baseUrl: string; runtime: Service; log: ReturnType<typeof memoryLog>; close(): Promise<void> };

/**
 * The runtime needs its public base URL before it is built (link urls, the bank's callback), and
 * the port is known only once listening, so the server forwards to a runtime made right after.
 */
export async function startKasa(): Promise<Kasa> {
  let runtime: Service | null = null;
  const front = new H3().all("/**", (event) => {
    if (!runtime) return new Response("starting", { status: 503 });
    return runtime.app.fetch(event.req);
  });
  const { server, origin } = await listen(front);
  const store: Store = await openStore(":memory:");
  await applySeed(
    store,
    parseSeed(
      demoSeed(
        DEMO_BINS.map((b) => ({ ...b })),
        origin,
      ),
    ),
    systemClock.nowMs(),
    () => `key_browser_${Math.random().toString(36).slice(2)}`,
  );
  const log = memoryLog();
  runtime = await createService({
    store,
    clock: systemClock,
    config: { mode: "sandbox", baseUrl: origin, trustProxy: false, allowPrivateWebhooks: true },
    log,
    rateLimiter: createRateLimiter({ limits: "off" }),
  });
  runtime.start();
  const started = runtime;
  return {
    baseUrl: origin,
    runtime: started,
    log,
    async close() {
      await server.close(true);
      await started.stop();
      await store.close();
    },
  };
}

export type Shop = { origin: string; close(): Promise<void> };

/** The partner's shop: any path answers a small page naming itself. */
export async function startShop(): Promise<Shop> {
  const app = new H3().all("/**", (event) => {
    const body = `<!doctype html><html lang="tr"><head><meta charset="utf-8"><title>Mağaza</title></head><body><h1>Mağaza</h1><p id="path">${event.url.pathname}</p></body></html>`;
    return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  const { server, origin } = await listen(app);
  return { origin, close: () => server.close(true) };
}
