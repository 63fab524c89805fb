import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { readPragma } from "../../src/store/sqlite/inspect";
import { freePort } from "../support/free-port";

// product 19 / issue 20: Litestream (installed from npm, a devDependency) replicating kasa's database
// to a file replica while kasa serves under load; then a restore from the replica alone.

const BINARY = "dist/kasa";
const LITESTREAM = "node_modules/@flydotio/litestream-linux-x64/litestream";

function createPayment(port: number, key: string, txCode: string): Promise<string | null> {
  return new Promise((resolve) => {
    const data = JSON.stringify({ amount: 10_000, partnerTxCode: txCode, terminalId: "T-1001", returnUrl: "https://shop.example/done" });
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/v1/payments",
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(data) },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += String(d)));
        res.on("end", () => resolve(res.statusCode === 201 ? (JSON.parse(text).paymentCode as string) : null));
      },
    );
    req.on("error", () => resolve(null));
    req.end(data);
  });
}

const litestreamConfig = (db: string, replica: string): string =>
  [
    "dbs:",
    `  - path: ${db}`,
    "    monitor-interval: 200ms",
    "    replicas:",
    `      - url: ${replica}`,
    "        sync-interval: 200ms",
    "",
  ].join("\n");

describe("product 19 Litestream: disaster recovery copy of a serving kasa", () => {
  it("every payment acknowledged more than a second before the copy stopped is in the restored database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kasa-litestream-"));
    const db = join(dir, "kasa.db");
    const replica = `file://${join(dir, "replica")}`;
    const port = await freePort();
    const kasa = spawn(BINARY, ["sandbox", "--port", String(port), "--db", db, "--limits", "off", "--log-format", "json"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    kasa.stdout.on("data", (d) => (out += String(d)));
    kasa.stderr.on("data", (d) => (out += String(d)));
    const kasaExited = new Promise((resolve) => kasa.on("exit", resolve));
    const deadline = Date.now() + 20_000;
    // --log-format json: the banner is a JSON line too, its API key under "apiKey".
    while (!/"apiKey":"([^"]+)"/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const key = /"apiKey":"([^"]+)"/.exec(out)![1]!;

    // The configuration docs/operating.md recommends: WAL checked and shipped every 200 ms, so a
    // loaded 2-core machine still copies what was acknowledged a second ago (the default 1 s
    // interval leaves no margin for the criterion).
    const config = join(dir, "litestream.yml");
    writeFileSync(config, litestreamConfig(db, replica));
    const litestream = spawn(LITESTREAM, ["replicate", "-config", config], { stdio: ["ignore", "pipe", "pipe"] });
    let lsOut = "";
    litestream.stdout.on("data", (d) => (lsOut += String(d)));
    litestream.stderr.on("data", (d) => (lsOut += String(d)));
    const lsExited = new Promise((resolve) => litestream.on("exit", resolve));

    const acked: Array<{ code: string; at: number }> = [];
    let n = 0;
    let running = true;
    const worker = async () => {
      while (running) {
        const code = await createPayment(port, key, `ls-${++n}`);
        if (code) acked.push({ code, at: Date.now() });
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await new Promise((r) => setTimeout(r, 4_000));
    // The machine is lost: the copy stops abruptly while kasa is still taking payments.
    litestream.kill("SIGKILL");
    const stoppedAt = Date.now();
    await lsExited;
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    await Promise.all(workers);
    kasa.kill("SIGTERM");
    await kasaExited;

    const restored = join(dir, "restored.db");
    const r = spawnSync(LITESTREAM, ["restore", "-o", restored, replica], { encoding: "utf8", timeout: 30_000 });
    expect(r.status, `${r.stderr}\n${lsOut}`).toBe(0);
    const store = await openStore(restored);
    const due = acked.filter((a) => a.at < stoppedAt - 1_000);
    const missing: typeof due = [];
    for (const a of due) if ((await store.q.payments.get(a.code)) === undefined) missing.push(a);
    const integrity = readPragma(store, "integrity_check");
    await store.close();
    expect(due.length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
    expect(integrity).toEqual({ integrity_check: "ok" });
  }, 90_000);
});
