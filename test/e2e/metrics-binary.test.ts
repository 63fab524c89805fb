import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../support/free-port";

const BINARY = "dist/kasa";

function listenAny(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

describe("product 19 metrics listener in the compiled binary", () => {
  it("serves /metrics on --metrics-port (not on the API port); SIGTERM still exits 0", async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const db = join(mkdtempSync(join(tmpdir(), "kasa-e2e-")), "sandbox.db");
    const child = spawn(
      BINARY,
      ["sandbox", "--port", String(port), "--db", db, "--metrics-port", String(metricsPort), "--log-format", "pretty"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.stderr.on("data", (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + 20_000;
    while (!out.includes("API key:") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('kasa_http_requests_total{method="GET",route="/healthz",status="200"} 1');
    // prom-client inside the compiled binary: its default process metrics and the scrape-time families.
    expect(text).toMatch(/^kasa_process_cpu_seconds_total \d/m);
    expect(text).toContain("# TYPE kasa_payment_transitions_total counter");
    expect(text).toMatch(/^kasa_timers_pending\{kind="[a-z-]+"\} \d+$/m);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("a metrics port in use: one line on stderr, exit 1, no database created", async () => {
    const { server, port } = await listenAny();
    const db = join(mkdtempSync(join(tmpdir(), "kasa-e2e-")), "never.db");
    const r = spawnSync(BINARY, ["serve", "--port", String(await freePort()), "--db", db, "--metrics-port", String(port)], {
      encoding: "utf8",
      timeout: 20_000,
    });
    await new Promise((res) => server.close(res));
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([`kasa: --metrics-port ${port}: 127.0.0.1:${port} is already in use`]);
    expect(existsSync(db)).toBe(false);
  });
});
