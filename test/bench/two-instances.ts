import type { Figure } from "./ceilings";
import { PAYMENT_BODY, database, startKasa, type RunContext } from "./scenarios";
import { BENCH_KEY } from "./seed-db";
import { cpuSeconds, settled, wrk, wrkScript } from "./tools";

// Issue 37: "two instances on one database". Two `kasa serve` processes on one PostgreSQL
// database (the create-payment seed, so the same one bank connection and its limits), each driven
// by its own wrk with half the connections of the one-instance row, both at once. The figure is
// the two rates added; the p99 the worse of the two. Issue 37's target: two instances at least
// 1.3x one (pg-create-payment), which they only reach if creates on one connection stop waiting
// for each other across processes.

/** Half the 64 connections of the one-instance row each, so the two together offer the same load. */
const CONNECTIONS_EACH = 32;

export async function createTwoInstances(ctx: RunContext): Promise<Figure> {
  if (ctx.store !== "postgres") throw new Error("the two-instance row runs on PostgreSQL only");
  const db = await database(ctx, {});
  // One after the other, as an operator rolls instances out; starting is not what this row measures.
  const first = await startKasa(ctx, db);
  const second = await startKasa(ctx, db).catch(async (error: unknown) => {
    await first.proc.stop();
    throw error;
  });
  const both = [first, second];
  try {
    // Each instance's codes carry its own tag: the two wrk never send the same partnerTxCode.
    const scripts = both.map((_, i) =>
      wrkScript("POST", "/v1/payments", BENCH_KEY, PAYMENT_BODY(`i${i + 1}-' .. prefix .. '-' .. n .. '`)),
    );
    const drive = (seconds: number) =>
      Promise.all(both.map((k, i) => wrk(`${k.base}/v1/payments`, seconds, scripts[i]!, ctx.dir, CONNECTIONS_EACH)));
    await drive(1);
    const cpu0 = both.map((k) => cpuSeconds(k.proc.pid));
    const runs = await drive(ctx.sizes.seconds);
    const cpuUs = both.reduce((sum, k, i) => sum + (cpuSeconds(k.proc.pid) - cpu0[i]!), 0) * 1e6;
    for (const r of runs) if (r.errors > r.requests / 100) throw new Error(`${r.errors} of ${r.requests} creates failed on one instance`);
    await Promise.all(both.map((k) => settled(k.proc)));
    const requests = runs.reduce((sum, r) => sum + r.requests, 0);
    return {
      rps: runs.reduce((sum, r) => sum + r.rps, 0),
      p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
      cpuUsPerOp: cpuUs / Math.max(1, requests),
    };
  } finally {
    await Promise.all(both.map((k) => k.proc.stop()));
  }
}
