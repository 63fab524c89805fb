import { afterEach, describe, expect, it } from "vitest";
import { wallNowMs } from "../../src/clock";
import { healthRoutes, READY_TIMER_STALE_MS } from "../../src/http/health";
import { harness, type Harness } from "../support/harness";

let h: Harness;
afterEach(async () => h?.close());

/** Calls one of healthRoutes' handlers directly (the harness app builds them with the real wall clock). */
async function readyz(routes: ReturnType<typeof healthRoutes>) {
  const res = await routes
    .find((r) => r.path === "/readyz")!
    .handle(undefined as never, "tr_test", { session: null, form: null, ip: "127.0.0.1" });
  return { status: res.status, json: await res.json() };
}

describe("product 19 health endpoints", () => {
  it("GET /healthz answers 200 {status: ok} without a key", async () => {
    h = await harness();
    const r = await h.get("/healthz", { key: null });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: "ok" });
  });

  it("GET /readyz is 200 once the timer loop ran and a write commits, and the probe write is in the database", async () => {
    h = await harness();
    await h.runDue();
    const r = await h.get("/readyz", { key: null });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: "ok" });
    expect(await h.store.q.meta.get("health.probe")).toBeDefined();
  });

  it("GET /readyz is 503 naming timers when the timer loop never ran", async () => {
    h = await harness();
    const r = await h.get("/readyz", { key: null });
    expect(r.status).toBe(503);
    expect(r.json).toEqual({ status: "unavailable", failing: ["timers"] });
  });

  it("GET /readyz is 503 naming timers when the loop last ran more than 5 s ago", async () => {
    h = await harness();
    await h.runDue();
    const ranAt = h.deps.timers.lastRanAtMs!;
    const at = (ms: number) => readyz(healthRoutes(h.deps, { wallNowMs: () => ranAt + ms }));
    expect((await at(READY_TIMER_STALE_MS)).status).toBe(200);
    expect(await at(READY_TIMER_STALE_MS + 1)).toEqual({ status: 503, json: { status: "unavailable", failing: ["timers"] } });
  });

  it("GET /readyz is 503 naming the database when a write does not commit within the timeout", async () => {
    h = await harness();
    await h.runDue();
    const stuck = { ...h.deps, store: { ...h.deps.store, write: () => new Promise<never>(() => {}) } };
    const started = wallNowMs();
    const r = await readyz(healthRoutes(stuck, { writeTimeoutMs: 50 }));
    expect(r).toEqual({ status: 503, json: { status: "unavailable", failing: ["database"] } });
    expect(wallNowMs() - started).toBeLessThan(1_000);
    const failing = { ...h.deps, store: { ...h.deps.store, write: () => Promise.reject(new Error("disk full")) } };
    expect((await readyz(healthRoutes(failing))).json.failing).toEqual(["database"]);
  });

  it("a real started timer loop keeps /readyz at 200 while nothing is due (heartbeat)", async () => {
    h = await harness();
    h.runtime.start();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await h.get("/readyz", { key: null })).status).toBe(200);
  });

  it("product 27: /readyz is 200 at once after the timer loop starts (it beats once at start, not after a second)", async () => {
    h = await harness();
    h.runtime.start();
    expect((await h.get("/readyz", { key: null })).status).toBe(200);
  });

  it("neither endpoint draws on the IP gate or any budget: 300 calls from one IP, then the API still admits", async () => {
    h = await harness({ limits: { "gate.ip": 5, "gate.platform": 5 } });
    await h.runDue();
    for (let i = 0; i < 150; i++) {
      expect((await h.get("/healthz", { key: null, ip: "203.0.113.9" })).status).toBe(200);
      expect((await h.get("/readyz", { key: null, ip: "203.0.113.9" })).status).toBe(200);
    }
    expect((await h.get("/v1/payment-acceptance", { ip: "203.0.113.9" })).status).toBe(200);
  });
});
