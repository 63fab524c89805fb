import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { toLinkJson, toLinkPageJson } from "../../src/domain/payment-links/view";
import { freePort } from "../support/free-port";
import { PAYMENT_BODY, database, type RunContext } from "./scenarios";
import { BENCH_KEY, PARTNER, TERMINAL, benchLink } from "./seed-db";
import { HOST, cpuSeconds, startProcess, waitForAnswer, wrk, wrkScript } from "./tools";
import type { Figure } from "./ceilings";

// Issue 37's targets against what this stack and machine allow at all (docs/performance.md, How
// the bench runs, "Floors"): servers doing only what the target's request cannot skip. Reads: an
// h3 app with the duties docs/contract.md gives every API request, the answer from memory, built
// once at start (no store, no copies). Creates: the same duties and kasa's own INSERT into the
// seeded schema, committed per turn. A lower bound of a request's cost, not a design: a kasa row
// cannot be faster than its floor.
//
// Per request, as kasa does them: the caller's address (the pre-auth per-address budget), the
// bearer key's SHA-256 looked up in a map, a token bucket per address and per key, a random
// trace id, the record scoped to the key's partner, the JSON answer with kasa's headers, one
// request log line (written once per turn) and a counter and histogram for the metrics.

/** What every API request does before and after its own work, as kasa does it. */
const DUTIES = `
import { H3, serve } from "h3";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
const data = JSON.parse(readFileSync(process.argv[3], "utf8"));
const keys = new Map([[createHash("sha256").update(data.key).digest("hex"), { partnerId: data.partnerId }]]);
const buckets = new Map();
function take(k, now) {
  let b = buckets.get(k);
  if (b === undefined) { b = { tokens: 1e7, at: now }; buckets.set(k, b); }
  b.tokens = Math.min(1e7, b.tokens + (now - b.at) * 1e4); b.at = now;
  if (b.tokens < 1) return false;
  b.tokens -= 1; return true;
}
const counts = new Map(); const histogram = new Float64Array(16);
let lines = []; let flushing = false;
function log(line) {
  lines.push(line);
  if (!flushing) { flushing = true; setImmediate(() => { process.stdout.write(lines.join("")); lines = []; flushing = false; }); }
}
/** The caller (partner and trace id) once the budgets and the key allow it, or the refusal. */
function admit(event) {
  const now = Date.now();
  if (!take("ip:" + (event.req.ip ?? "unknown"), now)) return new Response(null, { status: 429 });
  const caller = keys.get(createHash("sha256").update((event.req.headers.get("authorization") ?? "").slice(7)).digest("hex"));
  if (caller === undefined) return new Response(null, { status: 401 });
  if (!take("key:" + caller.partnerId, now)) return new Response(null, { status: 429 });
  return { partnerId: caller.partnerId, traceId: randomBytes(12).toString("hex"), started: performance.now(), now };
}
function reply(method, route, caller, status, body) {
  const res = new Response(JSON.stringify(body), {
    status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-trace-id": caller.traceId },
  });
  const ms = performance.now() - caller.started;
  const series = route + " " + status;
  counts.set(series, (counts.get(series) ?? 0) + 1); histogram[Math.min(15, Math.floor(ms))] += 1;
  log('{"time":"' + new Date(caller.now).toISOString() + '","level":"info","tag":"request","method":"' + method + '","route":"' + route +
    '","status":' + status + ',"ms":' + ms.toFixed(2) + ',"traceId":"' + caller.traceId + '","partnerId":"' + caller.partnerId + '"}\\n');
  return res;
}
`;

const READ_FLOOR = `${DUTIES}
const links = new Map([[data.link.id, { partnerId: data.partnerId, json: data.link }]]);
const notFound = (caller) => ({ error: { code: "not_found", traceId: caller.traceId } });
const app = new H3()
  .get("/v1/payment-links/:id", (event) => {
    const caller = admit(event);
    if (caller instanceof Response) return caller;
    const l = links.get(event.context.params.id);
    const found = l !== undefined && l.partnerId === caller.partnerId;
    return reply("GET", "/v1/payment-links/:id", caller, found ? 200 : 404, found ? l.json : notFound(caller));
  })
  .get("/v1/payment-links", (event) => {
    const caller = admit(event);
    if (caller instanceof Response) return caller;
    const ok = new URL(event.req.url).searchParams.get("size") === "20";
    return reply("GET", "/v1/payment-links", caller, ok ? 200 : 404, ok ? data.page : notFound(caller));
  });
serve(app, { port: Number(process.argv[2]), hostname: "${HOST}", silent: true });
`;

/** The create route of both create floors: `stored(params)` settles once the payment is committed. */
const CREATE_ROUTE = `const app = new H3().post("/v1/payments", async (event) => {
  const caller = admit(event);
  if (caller instanceof Response) return caller;
  const body = JSON.parse(await event.req.text());
  if (!Number.isSafeInteger(body.amount) || typeof body.partnerTxCode !== "string" || body.terminalId !== data.terminalId) {
    return reply("POST", "/v1/payments", caller, 400, { error: { code: "validation_failed", traceId: caller.traceId } });
  }
  const code = "pay_" + randomBytes(10).toString("hex"); const ref = randomBytes(10).toString("hex");
  await stored([code, caller.partnerId, data.terminalId, connectionId, body.partnerTxCode, body.amount, body.amount, body.returnUrl ?? null,
    ref, caller.now + 900000, caller.now, caller.now]);
  return reply("POST", "/v1/payments", caller, 201, { code, partnerTxCode: body.partnerTxCode, status: "initiated", amount: body.amount,
    currency: "TRY", installment: 1, terminalId: data.terminalId, paymentUrl: "http://${HOST}:8080/pay/" + ref, expiresAt: new Date(caller.now + 900000).toISOString(),
    createdAt: new Date(caller.now).toISOString() });
});
serve(app, { port: Number(process.argv[2]), hostname: "${HOST}", silent: true });
`;

/**
 * Create payment's floor on SQLite: the duties, the body parsed and its three fields checked, and
 * kasa's own INSERT into the seeded file (the payments table with all its indexes and triggers),
 * the inserts of one turn committed together (synchronous=FULL, as kasa's group commit) before
 * any of them answers. No savepoint, no rule read, no limits check, no outbox: less than a create
 * needs.
 */
const CREATE_FLOOR = `${DUTIES}
import { Database } from "bun:sqlite";
const db = new Database(process.argv[4]);
db.exec("PRAGMA journal_mode = WAL"); db.exec("PRAGMA synchronous = FULL"); db.exec("PRAGMA foreign_keys = ON");
const connectionId = db.prepare("SELECT connection_id AS c FROM terminals WHERE id = ?").get(data.terminalId).c;
const insert = db.prepare(\`INSERT INTO payments (code, partner_id, terminal_id, connection_id, partner_tx_code, channel, link_id,
  status, amount, principal, currency, installment, description, return_url, payment_ref, expires_at_ms, created_at_ms,
  updated_at_ms) VALUES (?, ?, ?, ?, ?, 'api', NULL, 'initiated', ?, ?, 'TRY', 1, NULL, ?, ?, ?, ?, ?)\`);
let waiting = null;
function committed() {
  if (waiting === null) {
    db.exec("BEGIN IMMEDIATE");
    let done; const turn = new Promise((resolve) => (done = resolve));
    waiting = turn;
    setImmediate(() => { waiting = null; db.exec("COMMIT"); done(); });
  }
  return waiting;
}
/** Inserted now, answered once the turn's inserts are committed. */
function stored(params) {
  const turn = committed();
  insert.run(...params);
  return turn;
}
${CREATE_ROUTE}`;

/**
 * The same on PostgreSQL: kasa's INSERT (the table's indexes and triggers) through postgres.js,
 * the queued inserts of up to four transactions at a time committed together, as kasa's runners do.
 */
const PG_CREATE_FLOOR = `${DUTIES}
import postgres from "postgres";
const sql = postgres(process.argv[4], { max: 4, onnotice: () => {} });
const [{ c: connectionId }] = await sql\`SELECT connection_id AS c FROM terminals WHERE id = \${data.terminalId}\`;
const INSERT = \`INSERT INTO payments (code, partner_id, terminal_id, connection_id, partner_tx_code, channel, link_id,
  status, amount, principal, currency, installment, description, return_url, payment_ref, expires_at_ms, created_at_ms,
  updated_at_ms) VALUES ($1, $2, $3, $4, $5, 'api', NULL, 'initiated', $6, $7, 'TRY', 1, NULL, $8, $9, $10, $11, $12)\`;
let queue = []; let running = 0;
function run() {
  if (running >= 4 || queue.length === 0) return;
  const batch = queue; queue = []; running += 1;
  sql.begin((tx) => Promise.all(batch.map((u) => tx.unsafe(INSERT, u.params))))
    .then(() => { for (const u of batch) u.done(); }, (e) => { for (const u of batch) u.fail(e); })
    .finally(() => { running -= 1; run(); });
}
function stored(params) {
  return new Promise((done, fail) => { queue.push({ params, done, fail }); setImmediate(run); });
}
${CREATE_ROUTE}`;

type FloorServer = { name: string; text: string; data: object; args: string[]; path: string; lua: string };

/** Serves the floor's `text` with its `data` (and `args`) and drives its `path` as kasa's rows are driven. */
async function driveFloor(dir: string, seconds: number, { name, text, data, args, path, lua }: FloorServer): Promise<Figure> {
  const dataFile = join(dir, `${name}.json`);
  writeFileSync(dataFile, JSON.stringify(data));
  const script = join(dir, `${name}.ts`);
  writeFileSync(script, text);
  const port = await freePort();
  const proc = startProcess(process.execPath, [script, String(port), dataFile, ...args]);
  try {
    await waitForAnswer(`http://${HOST}:${port}/`, performance.now(), proc);
    await wrk(`http://${HOST}:${port}${path}`, 1, lua, dir);
    const cpu0 = cpuSeconds(proc.pid);
    const r = await wrk(`http://${HOST}:${port}${path}`, seconds, lua, dir);
    if (r.errors > 0) throw new Error(`${name}: ${r.errors} answers were not 2xx`);
    return { rps: r.rps, p99Ms: r.p99Ms, cpuUsPerOp: ((cpuSeconds(proc.pid) - cpu0) * 1e6) / Math.max(1, r.requests) };
  } finally {
    await proc.stop();
  }
}

/** The floor of get link (`which` "get") or of list links' page of 20 ("list"). */
export function readFloor(dir: string, seconds: number, which: "get" | "list"): Promise<Figure> {
  const nowMs = Date.now();
  const rows = Array.from({ length: 20 }, (_, i) => benchLink(i, 100_000, nowMs));
  const baseUrl = `http://${HOST}:8080`;
  const link = toLinkJson(rows[0]!, baseUrl);
  const page = toLinkPageJson(rows, baseUrl, { page: 0, size: 20, hasMore: true });
  const path = which === "get" ? `/v1/payment-links/${link.id}` : "/v1/payment-links?page=0&size=20";
  const data = { key: BENCH_KEY, partnerId: PARTNER, link, page };
  const lua = wrkScript("GET", path, BENCH_KEY, null);
  return driveFloor(dir, seconds, { name: "read-floor", text: READ_FLOOR, data, args: [], path, lua });
}

/** The floor of create payment, on a copy of create payment's own seed in the row's store. */
export async function createFloor(ctx: RunContext): Promise<Figure> {
  const db = await database(ctx, {});
  const lua = wrkScript("POST", "/v1/payments", BENCH_KEY, PAYMENT_BODY(`f-' .. prefix .. '-' .. n .. '`));
  const data = { key: BENCH_KEY, partnerId: PARTNER, terminalId: TERMINAL };
  const text = ctx.store === "postgres" ? PG_CREATE_FLOOR : CREATE_FLOOR;
  return driveFloor(ctx.dir, ctx.sizes.seconds, { name: "create-floor", text, data, args: [db], path: "/v1/payments", lua });
}

/** Issue 37's targets that a floor bounds: the kasa row, its floor, what both are divided by, the target. */
const FLOOR_TARGETS = [
  { row: "get-link", floor: "floor-get-link", over: "ceiling-http", target: 0.5 },
  { row: "list-links", floor: "floor-list-links", over: "ceiling-http", target: 0.2 },
  { row: "create-payment", floor: "floor-create-payment", over: "ceiling-naive", target: 2 },
  // Like for like: the least a create costs on PostgreSQL over the least it costs on SQLite.
  { row: "pg-create-payment", floor: "pg-floor-create-payment", over: "floor-create-payment", target: 0.5 },
] as const;

/**
 * One line per target measured with its floor in this run: the kasa row over its floor, and the
 * floor over the target's ceiling. A floor below its target means no kasa on this stack and
 * machine can meet it: the least the duties cost already misses it.
 */
export function floorLines(results: Record<string, { rps?: number }>): string[] {
  const fmt2 = (n: number) => n.toFixed(2);
  const lines = FLOOR_TARGETS.flatMap(({ row, floor, over, target }) => {
    const [kasa, least, ceiling] = [results[row]?.rps, results[floor]?.rps, results[over]?.rps];
    if (!kasa || !least || !ceiling) return [];
    const reach = least / ceiling >= target ? "the floor reaches the target" : "the floor itself misses the target";
    return [`${row}: ${fmt2(kasa / least)}x of its floor; the floor ${fmt2(least / ceiling)}x of ${over} (target ${target}x): ${reach}`];
  });
  return lines.length === 0 ? [] : ["", "issue 37 targets against their floors (floors.ts):", ...lines];
}
