import { stampSchemaVersion } from "./base-fit";
import { freePort } from "../support/free-port";
import { formClient } from "../../src/http/sandbox/form-client";
import type { Figure } from "./ceilings";
import { openLoop } from "./open-loop";
import { BENCH_KEY, SPREAD, TERMINAL, postgresCopy, seedDb, seededCopy, type BenchSeed } from "./seed-db";
import { PANEL_EMAIL, PANEL_PASSWORD } from "./seed-panel";
import { HOST, cpuSeconds, rssMiB, settled, sleep, startProcess, waitForAnswer, wrk, wrkScript, type Proc } from "./tools";

// kasa's scenarios: each starts `ctx.binary serve` on a database seeded for it, with every rate
// budget raised by a --limits file, and drives it on loopback. A scenario is one row of the table.
// The binary is a parameter so the same scenario can run against this tree's dist/kasa and against
// the base commit's binary (base-binary.ts), each on its own copy of the same seeded database.
// The store is a parameter too: with `store: "postgres"` the scenario's database is a fresh one on
// the run's PostgreSQL cluster (`pgUrl`), holding a copy of the same seeded SQLite file.

export type Sizes = { links: number; timers: number; payments: number; deliveries: number; seconds: number };
export type RunContext = {
  dir: string;
  limitsFile: string;
  sizes: Sizes;
  nowMs: number;
  binary: string;
  /** Where the scenario's database lives: a SQLite file (the default) or the run's PostgreSQL cluster. */
  store?: "sqlite" | "postgres";
  /** The run's PostgreSQL cluster (its `postgres` database), when a selected row needs one. */
  pgUrl?: string | null;
  /** An older base binary's schema version: its SQLite copies are stamped with it (base-fit.ts). */
  schemaVersion?: number;
};

/** `--db` for a scenario: its seeded SQLite file, or a PostgreSQL database holding a copy of it. */
async function onStore(ctx: RunContext, file: string): Promise<string> {
  if (ctx.schemaVersion !== undefined) await stampSchemaVersion(file, ctx.schemaVersion);
  if (ctx.store !== "postgres") return file;
  if (!ctx.pgUrl) throw new Error("a PostgreSQL scenario ran without the run's cluster");
  // Copied by the scenario's own binary: a base binary gets the schema it was built with.
  return await postgresCopy(ctx.pgUrl, file, ctx.binary);
}

export const database = async (ctx: RunContext, seed: BenchSeed) => await onStore(ctx, await seededCopy(ctx.dir, ctx.nowMs, seed));

export type Kasa = { base: string; proc: Proc; startMs: number };

export async function startKasa(ctx: RunContext, db: string): Promise<Kasa> {
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const started = performance.now();
  const proc = startProcess(ctx.binary, [
    "serve",
    "--db",
    db,
    "--port",
    String(port),
    "--host",
    HOST,
    "--base-url",
    base,
    "--limits",
    ctx.limitsFile,
    "--allow-private-webhooks",
  ]);
  const startMs = await waitForAnswer(`${base}/v1/payment-acceptance`, started, proc);
  return { base, proc, startMs };
}

const auth = { authorization: `Bearer ${BENCH_KEY}`, "content-type": "application/json" };

/** A loopback return URL: nothing in a benchmark may point outside 127.0.0.0/8. */
const RETURN_URL = `http://${HOST}:9/return`;
export const PAYMENT_BODY = (code: string, terminalId = TERMINAL) =>
  `'{"amount":10000,"partnerTxCode":"${code}","terminalId":"${terminalId}","returnUrl":"${RETURN_URL}"}'`;

/** wrk against one kasa endpoint: 1 s warm-up, then the measured run. */
async function load(
  ctx: RunContext,
  seed: BenchSeed,
  prepare: (k: Kasa) => Promise<{ path: string; script: string | null }>,
): Promise<Figure> {
  const k = await startKasa(ctx, await database(ctx, seed));
  try {
    const { path, script } = await prepare(k);
    await wrk(`${k.base}${path}`, 1, script, ctx.dir);
    const cpu0 = cpuSeconds(k.proc.pid);
    const r = await wrk(`${k.base}${path}`, ctx.sizes.seconds, script, ctx.dir);
    if (r.errors > r.requests / 100) throw new Error(`${r.errors} of ${r.requests} requests failed on ${path}`);
    const cpuUs = (cpuSeconds(k.proc.pid) - cpu0) * 1e6;
    await settled(k.proc);
    return { rps: r.rps, p99Ms: r.p99Ms, cpuUsPerOp: cpuUs / Math.max(1, r.requests) };
  } finally {
    await k.proc.stop();
  }
}

async function createLink(k: Kasa): Promise<{ id: string }> {
  const res = await fetch(`${k.base}/v1/payment-links`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ amount: 125_000, terminalId: TERMINAL }),
  });
  if (res.status !== 201) throw new Error(`create link: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

/** `terminalId`: the plain bench terminal, or the router of three members (docs/routing.md). */
export const createNew = (ctx: RunContext, payments = 0, terminalId = TERMINAL) =>
  load(ctx, { payments }, async () => ({
    path: "/v1/payments",
    script: wrkScript("POST", "/v1/payments", BENCH_KEY, PAYMENT_BODY(`b-' .. prefix .. '-' .. n .. '`, terminalId)),
  }));

/**
 * Create payment in an open loop at `rate` a second (issue 37: half the closed-loop maximum), each
 * latency from its scheduled send time (open-loop.ts): p50 and p99 without coordinated omission.
 */
export async function createOpenLoop(ctx: RunContext, rate: number): Promise<Figure> {
  const k = await startKasa(ctx, await database(ctx, {}));
  try {
    const prefix = Math.random().toString(36).slice(2);
    const r = await openLoop(
      (i) => ({
        url: `${k.base}/v1/payments`,
        init: {
          method: "POST",
          headers: auth,
          body: JSON.stringify({ amount: 10_000, partnerTxCode: `ol-${prefix}-${i}`, terminalId: TERMINAL, returnUrl: RETURN_URL }),
        },
      }),
      rate,
      ctx.sizes.seconds,
    );
    if (r.errors > r.sent / 100) throw new Error(`${r.errors} of ${r.sent} open-loop creates failed`);
    return { rps: r.achievedRps, p50Ms: r.p50Ms, p99Ms: r.p99Ms };
  } finally {
    await k.proc.stop();
  }
}

/**
 * Create payment spread over the eight terminals of SPREAD, each on its own connection (issue
 * 37: on PostgreSQL, creates on one connection wait for each other's limit rows; spread over
 * eight they need not).
 */
export const createSpread = (ctx: RunContext) =>
  load(ctx, {}, async () => ({
    path: "/v1/payments",
    script: wrkScript(
      "POST",
      "/v1/payments",
      BENCH_KEY,
      `'{"amount":10000,"partnerTxCode":"s-' .. prefix .. '-' .. n .. '","terminalId":"T-100' .. (n % ${SPREAD.length} + 1) .. '","returnUrl":"${RETURN_URL}"}'`,
    ),
  }));

export const createReplay = (ctx: RunContext) =>
  load(ctx, {}, async () => ({
    path: "/v1/payments",
    script: wrkScript("POST", "/v1/payments", BENCH_KEY, PAYMENT_BODY("replayed-order")),
  }));

export const getLink = (ctx: RunContext) =>
  load(ctx, {}, async (k) => {
    const path = `/v1/payment-links/${(await createLink(k)).id}`;
    return { path, script: wrkScript("GET", path, BENCH_KEY, null) };
  });

export const listLinks = (ctx: RunContext) =>
  load(ctx, { links: ctx.sizes.links }, async () => ({
    path: "/v1/payment-links?page=0&size=20",
    script: wrkScript("GET", "/v1/payment-links?page=0&size=20", BENCH_KEY, null),
  }));

export const installmentOptions = (ctx: RunContext) =>
  load(ctx, {}, async () => ({
    path: "/v1/installment-options",
    script: wrkScript("POST", "/v1/installment-options", BENCH_KEY, `'{"bin":"40000011","terminalId":"${TERMINAL}","baseAmount":100000}'`),
  }));

export const createLinks = (ctx: RunContext) =>
  load(ctx, {}, async () => ({
    path: "/v1/payment-links",
    script: wrkScript(
      "POST",
      "/v1/payment-links",
      BENCH_KEY,
      `'{"amount":125000,"terminalId":"${TERMINAL}","description":"Order ' .. n .. '"}'`,
    ),
  }));

/** Create, handoff, ACS, callback with capture, 303 to the return URL: 64 buyers at a time. */
export async function fullFlows(ctx: RunContext, terminalId = TERMINAL): Promise<Figure> {
  const k = await startKasa(ctx, await database(ctx, {}));
  try {
    // Redirects are the client's to follow (never fetch's): the last one leaves for the return URL.
    const client = formClient((url, init) => fetch(url, { ...init, redirect: "manual" }), [k.base]);
    let n = 0;
    const flow = async (): Promise<void> => {
      const created = await fetch(`${k.base}/v1/payments`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({
          amount: 10_000,
          partnerTxCode: `flow-${process.pid}-${n++}-${Math.random()}`,
          terminalId,
          returnUrl: RETURN_URL,
        }),
      });
      const { paymentRef } = (await created.json()) as { paymentRef: string };
      const acs = await client.post(`${k.base}/handoff`, {
        paymentRef,
        pan: "4000001100000009",
        expireMonth: "12",
        expireYear: "34",
        cv2: "123",
      });
      const done = await client.submit(acs.page!.forms[0]!, { otp: "123456" }, "confirm");
      if (!done.leftTo?.includes("status=captured")) throw new Error(`flow ended ${done.leftTo} ${done.page?.status}`);
    };
    const run = async (seconds: number) => {
      let flows = 0;
      const until = performance.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (performance.now() < until) {
            await flow();
            flows += 1;
          }
        }),
      );
      return flows;
    };
    await run(1);
    const cpu0 = cpuSeconds(k.proc.pid);
    const t0 = performance.now();
    const flows = await run(ctx.sizes.seconds);
    const s = (performance.now() - t0) / 1000;
    return { rps: flows / s, cpuUsPerOp: ((cpuSeconds(k.proc.pid) - cpu0) * 1e6) / Math.max(1, flows) };
  } finally {
    await k.proc.stop();
  }
}

/** `deliveries` webhook rows due at start, sent to a local receiver that checks each signature. */
export async function webhookDeliveries(ctx: RunContext): Promise<Figure> {
  const port = await freePort();
  let received = 0;
  const receiver = Bun.serve({
    port,
    hostname: HOST,
    async fetch(req) {
      await req.text();
      received += 1;
      return new Response(null, { status: 204 });
    },
  });
  let k: Kasa | undefined;
  try {
    // Seeded afresh per binary rather than copied: the receiver's port is in the database. A
    // seeding or copy that fails still stops the receiver, or it would keep the run alive.
    const name = `webhooks-${Math.random().toString(36).slice(2)}`;
    const file = await seedDb(ctx.dir, name, ctx.nowMs, { deliveries: ctx.sizes.deliveries, webhookUrl: `http://${HOST}:${port}/hooks` });
    k = await startKasa(ctx, await onStore(ctx, file));
    const t0 = performance.now();
    const cpu0 = cpuSeconds(k.proc.pid);
    // A guard, not a budget: 20,000 deliveries at a smoke pass's PostgreSQL rate (~350/s) take a minute.
    while (received < ctx.sizes.deliveries && performance.now() - t0 < 300_000) await sleep(20);
    const s = (performance.now() - t0) / 1000;
    if (received < ctx.sizes.deliveries) throw new Error(`only ${received} of ${ctx.sizes.deliveries} webhooks arrived`);
    return { rps: received / s, cpuUsPerOp: ((cpuSeconds(k.proc.pid) - cpu0) * 1e6) / received };
  } finally {
    await k?.proc.stop();
    receiver.stop(true);
  }
}

/** Start-up on a database with `timers` open links (pending expiry timers): time to first answer and memory. */
export async function startupWithTimers(ctx: RunContext): Promise<{ figure: Figure; db: string }> {
  const db = await onStore({ ...ctx, store: "sqlite" }, await seededCopy(ctx.dir, ctx.nowMs, { links: ctx.sizes.timers }));
  const k = await startKasa(ctx, db);
  try {
    return { figure: { seconds: k.startMs / 1000, mib: rssMiB(k.proc.pid) }, db };
  } finally {
    await k.proc.stop();
  }
}

/**
 * Issue 38: the merchant panel's dashboard on a partner with a year of payments (`sizes.payments`,
 * a million in a full run), as a logged-in viewer opens it: one request at a time, each timed. The
 * figure's p99 is the slowest of them; the bound is 300 ms.
 */
export async function panelDashboard(ctx: RunContext): Promise<Figure> {
  const k = await startKasa(ctx, await database(ctx, { panelYear: ctx.sizes.payments }));
  try {
    const login = await fetch(`${k.base}/panel/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: PANEL_EMAIL, password: PANEL_PASSWORD }).toString(),
      redirect: "manual",
    });
    const cookie = login.headers.get("set-cookie")?.split(";")[0];
    if (login.status !== 303 || !cookie) throw new Error(`panel login: ${login.status} ${await login.text()}`);
    const open = async (): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(`${k.base}/panel/`, { headers: { cookie } });
      const body = await res.text();
      if (res.status !== 200 || !body.includes('id="success-rate"')) throw new Error(`dashboard: ${res.status} ${body.slice(0, 300)}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < 3; i++) await open();
    const cpu0 = cpuSeconds(k.proc.pid);
    const times: number[] = [];
    const until = performance.now() + ctx.sizes.seconds * 1000;
    while (times.length < 20 || performance.now() < until) times.push(await open());
    const total = times.reduce((a, b) => a + b, 0);
    times.sort((a, b) => a - b);
    const p99Ms = times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)]!;
    return { rps: (times.length * 1000) / total, p99Ms, cpuUsPerOp: ((cpuSeconds(k.proc.pid) - cpu0) * 1e6) / times.length };
  } finally {
    await k.proc.stop();
  }
}
