import { startPgCluster } from "../support/pg-cluster";
import { seedDb, postgresCopy, BENCH_KEY, TERMINAL, raisedLimitsFile } from "./seed-db";
import { BUDGET_NAMES } from "../../src/domain/rate-limits/budgets";
import { mkdtempSync } from "node:fs";
import { spawn } from "node:child_process";
const dir = mkdtempSync("bench/t-");
const c = await startPgCluster();
try {
  const f = await seedDb(dir, "x", Date.now(), {});
  const url = await postgresCopy(c.url, f);
  const p = spawn(
    "dist/kasa",
    [
      "serve",
      "--db",
      url,
      "--port",
      "41999",
      "--host",
      "127.0.0.1",
      "--limits",
      raisedLimitsFile(dir, BUDGET_NAMES),
      "--allow-private-webhooks",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  p.stdout.on("data", (d) => (out += d));
  p.stderr.on("data", (d) => (out += d));
  for (;;) {
    try {
      await fetch("http://127.0.0.1:41999/v1/payment-acceptance");
      break;
    } catch {
      await Bun.sleep(10);
    }
  }
  let n = 0;
  const until = performance.now() + 1500;
  const st: Record<number, number> = {};
  const all = Promise.all(
    Array.from({ length: 64 }, async () => {
      while (performance.now() < until) {
        const r = await fetch("http://127.0.0.1:41999/v1/payments", {
          method: "POST",
          headers: { authorization: `Bearer ${BENCH_KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ amount: 10000, partnerTxCode: `x${n++}`, terminalId: TERMINAL, returnUrl: "http://127.0.0.1:9/r" }),
        });
        st[r.status] = (st[r.status] ?? 0) + 1;
        await r.text();
      }
    }),
  );
  await Bun.sleep(1500);
  const t = performance.now();
  p.kill("SIGTERM");
  await all.catch((e) => console.log("client", String(e)));
  console.log("requests", n, st);
  const code = await Promise.race([new Promise((r) => p.on("exit", r)), Bun.sleep(20000).then(() => "timeout")]);
  console.log("exit", code, Math.round(performance.now() - t), "ms");
  console.log(
    out
      .split("\n")
      .filter((l) => !l.includes('"msg":"request"'))
      .join("\n")
      .slice(-3000),
  );
  p.kill("SIGKILL");
} finally {
  await c.stop();
}
