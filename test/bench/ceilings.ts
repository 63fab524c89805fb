import { freePort } from "../support/free-port";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOST, cpuSeconds, rssMiB, startProcess, wrk, waitForAnswer, wrkScript, type Proc } from "./tools";

// Ceilings measured in the same run, on the same machine, as the figures they divide (README,
// Performance): what the hardware gives a bare program, so a ratio says what kasa adds.

const BARE_HTTP = `
Bun.serve({ port: Number(process.argv[2]), hostname: "${HOST}", fetch: () => Response.json({ ok: true }) });
`;

const H3_HTTP = `
import { H3, serve } from "h3";
const app = new H3().get("/", () => ({ ok: true }));
serve(app, { port: Number(process.argv[2]), hostname: "${HOST}", silent: true });
`;

const PRAGMAS = `db.exec("PRAGMA journal_mode = WAL"); db.exec("PRAGMA synchronous = FULL");`;

const STORAGE_LOOP = `
import { Database } from "bun:sqlite";
const db = new Database(process.argv[2]);
${PRAGMAS}
db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
const until = performance.now() + Number(process.argv[3]) * 1000;
let n = 0;
while (performance.now() < until) { db.exec("BEGIN IMMEDIATE"); insert.run("x"); db.exec("COMMIT"); n += 1; }
console.log(JSON.stringify({ commitsPerS: n / Number(process.argv[3]) }));
`;

const NAIVE_WRITE = `
import { Database } from "bun:sqlite";
const db = new Database(process.argv[3]);
${PRAGMAS}
db.exec("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
Bun.serve({ port: Number(process.argv[2]), hostname: "${HOST}", async fetch(req) {
  const body = await req.text();
  db.exec("BEGIN IMMEDIATE"); insert.run(body); db.exec("COMMIT");
  return Response.json({ ok: true }, { status: 201 });
} });
`;

/** Reads the open links the way kasa's timer wheel does at start, then listens. */
const BARE_SCAN = `
import { Database } from "bun:sqlite";
const db = new Database(process.argv[3], { readonly: true });
const ids = []; const due = [];
for (const r of db.prepare("SELECT id, expires_at_ms AS e FROM payment_links WHERE status IN ('pending', 'launched', 'initiated', 'failed') ORDER BY expires_at_ms").iterate()) { ids.push(r.id); due.push(r.e); }
Bun.serve({ port: Number(process.argv[2]), hostname: "${HOST}", fetch: () => Response.json({ rows: ids.length }) });
`;

function script(dir: string, name: string, text: string): string {
  const path = join(dir, `${name}.ts`);
  writeFileSync(path, text);
  return path;
}

export type Figure = { rps?: number; p50Ms?: number; p99Ms?: number; cpuUsPerOp?: number; seconds?: number; mib?: number };

async function serveAndLoad(dir: string, name: string, text: string, extra: string[], seconds: number, post: boolean): Promise<Figure> {
  const port = await freePort();
  // Run from the project root so `import "h3"` resolves to the project's own copy.
  const proc = startProcess(process.execPath, [script(dir, name, text), String(port), ...extra]);
  try {
    await waitForAnswer(`http://${HOST}:${port}/`, performance.now(), proc);
    const lua = post ? wrkScript("POST", "/", null, `'{"n":' .. n .. '}'`) : null;
    await wrk(`http://${HOST}:${port}/`, 1, lua, dir);
    const cpu0 = cpuSeconds(proc.pid);
    const r = await wrk(`http://${HOST}:${port}/`, seconds, lua, dir);
    return { rps: r.rps, p99Ms: r.p99Ms, cpuUsPerOp: ((cpuSeconds(proc.pid) - cpu0) * 1e6) / Math.max(1, r.requests) };
  } finally {
    await proc.stop();
  }
}

export const httpCeiling = (dir: string, seconds: number) => serveAndLoad(dir, "bare-http", BARE_HTTP, [], seconds, false);
export const h3Diagnostic = (dir: string, seconds: number) => serveAndLoad(dir, "h3-http", H3_HTTP, [], seconds, false);
export const naiveWriteCeiling = (dir: string, seconds: number) =>
  serveAndLoad(dir, "naive-write", NAIVE_WRITE, [join(dir, "naive.db")], seconds, true);

export async function storageCeiling(dir: string, seconds: number): Promise<Figure> {
  const proc = startProcess(process.execPath, [script(dir, "storage", STORAGE_LOOP), join(dir, "storage.db"), String(seconds)]);
  await proc.exited;
  const line = proc.output().trim().split("\n").pop() ?? "";
  return { rps: (JSON.parse(line) as { commitsPerS: number }).commitsPerS };
}

/** A bare Bun process reading `db`'s open links into arrays, then answering: start-up time and memory. */
export async function bareScan(dir: string, db: string): Promise<Figure> {
  const port = await freePort();
  const started = performance.now();
  const proc = startProcess(process.execPath, [script(dir, "bare-scan", BARE_SCAN), String(port), db]);
  try {
    const ms = await waitForAnswer(`http://${HOST}:${port}/`, started, proc);
    return { seconds: ms / 1000, mib: rssMiB(proc.pid) };
  } finally {
    await proc.stop();
  }
}

export type { Proc };
