import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startMetricsListener, type MetricsListener } from "../../cli/metrics-listener";
import { CliError } from "../../cli/cli-error";
import { harness, type Harness } from "../support/harness";

let h: Harness | undefined;
let listener: MetricsListener | undefined;
let blocker: Server | undefined;
afterEach(async () => {
  await listener?.close();
  await h?.close();
  await new Promise((r) => (blocker ? blocker.close(r) : r(undefined)));
  h = listener = blocker = undefined;
});

function occupiedPort(): Promise<number> {
  return new Promise((resolve) => {
    blocker = createServer();
    blocker.listen(0, "127.0.0.1", () => resolve((blocker!.address() as { port: number }).port));
  });
}

describe("product 19 metrics", () => {
  it("the registry exposes HTTP, group-commit, outbox and timer families in the Prometheus text format", async () => {
    h = await harness();
    await h.get("/v1/payment-acceptance");
    await h.get("/v1/payments/pay_missing000000000001");
    await h.post("/v1/payments", { amount: 10_000, partnerTxCode: "m-1", terminalId: "T-1", returnUrl: "https://shop.example/done" });
    const text = await h.runtime.metrics.render();
    expect(text).toContain("# TYPE kasa_http_requests_total counter");
    expect(text).toContain('kasa_http_requests_total{method="GET",route="/v1/payment-acceptance",status="200"} 1');
    expect(text).toContain('kasa_http_requests_total{method="GET",route="/v1/payments/:paymentCode",status="404"} 1');
    expect(text).toContain('kasa_http_requests_total{method="POST",route="/v1/payments",status="201"} 1');
    expect(text).toMatch(/^kasa_http_request_duration_seconds_count\{route="\/v1\/payments",status="201"\} 1$/m);
    expect(text).toMatch(/^kasa_store_batch_units_count [1-9]\d*$/m);
    expect(text).toMatch(/^kasa_store_commit_seconds_bucket\{le="\+Inf"\} [1-9]\d*$/m);
    expect(text).toContain("kasa_webhook_outbox_pending 0");
    expect(text).toContain('kasa_timers_pending{kind="payment-expiry"} 1');
    // The public app has no /metrics.
    expect((await h.get("/metrics", { key: null })).status).toBe(404);
  });

  it("the outbox gauge counts pending deliveries", async () => {
    h = await harness();
    const { enqueue } = await import("../unit/webhooks/support");
    await enqueue(h, { type: "webhook.test" });
    expect(await h.runtime.metrics.render()).toContain("kasa_webhook_outbox_pending 1");
  });

  it("serves /metrics on its own loopback listener", async () => {
    h = await harness();
    await h.get("/healthz", { key: null });
    const port = await occupiedPort();
    await new Promise((r) => blocker!.close(r));
    blocker = undefined;
    listener = await startMetricsListener("127.0.0.1", port, () => h!.runtime.metrics.render());
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(await res.text()).toContain('kasa_http_requests_total{method="GET",route="/healthz",status="200"} 1');
  });

  it("a metrics port in use: one-line error (exit 1)", async () => {
    const port = await occupiedPort();
    const err = await startMetricsListener("127.0.0.1", port, async () => "").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(1);
    expect((err as CliError).message).toBe(`--metrics-port ${port}: 127.0.0.1:${port} is already in use`);
  });
});
