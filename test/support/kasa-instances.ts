import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "./free-port";

// Product 22: real `kasa serve|sandbox` PROCESSES (from source, under Bun) on one database, for
// the tests that prove several instances share a PostgreSQL database safely; and the operator CLI
// run as its own process against the same database. Everything listens on 127.0.0.1 only.

const BUN = "node_modules/.bin/bun";
const MAIN = "cli/main.ts";
/** What a process keeps of its output for a failure message. */
const OUTPUT_KEEP_CHARS = 20_000;

/** The environment of every spawned kasa: no master key and no default database leak in from the caller. */
function kasaEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.KASA_MASTER_KEY;
  delete env.KASA_DB;
  return env;
}

export type KasaInstance = {
  name: string;
  base: string;
  port: number;
  child: ChildProcess;
  /** stdout and stderr so far (the last OUTPUT_KEEP_CHARS). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed). */
  stop(graceMs?: number): Promise<number | null>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 50 ms until it holds; throws `what` (and `detail()`) after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 20_000, detail = () => ""): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}\n${detail()}`);
    await sleep(50);
  }
}

/**
 * Starts `kasa <mode> --db URL --port P --host 127.0.0.1 …extra` and resolves once its banner is
 * printed and GET /healthz answers 200. A port another process takes between freePort and the
 * server's bind is tried again on a new one.
 */
export async function startKasa(opts: { name: string; mode: "serve" | "sandbox"; db: string; extra?: string[] }): Promise<KasaInstance> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const instance = spawnKasa(opts, port);
    try {
      await waitFor(
        () => instance.exited || /listening on/.test(instance.text),
        `${opts.name}: the banner`,
        30_000,
        () => instance.text,
      );
      if (instance.exited) throw new Error(`${opts.name} exited before it listened:\n${instance.text}`);
      const base = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200, `${opts.name}: /healthz`, 10_000);
      return {
        name: opts.name,
        base,
        port,
        child: instance.child,
        output: () => instance.text,
        stop: (graceMs = 5_000) => stopChild(instance.child, graceMs),
      };
    } catch (error) {
      await stopChild(instance.child, 1_000);
      if (attempt === 3 || !/EADDRINUSE|address already in use/i.test(instance.text)) throw error;
    }
  }
}

function spawnKasa(opts: { mode: string; db: string; extra?: string[] }, port: number) {
  const args = [MAIN, opts.mode, "--db", opts.db, "--port", String(port), "--host", "127.0.0.1", ...(opts.extra ?? [])];
  const child = spawn(BUN, args, { stdio: ["ignore", "pipe", "pipe"], env: kasaEnv() });
  const state = { child, text: "", exited: false };
  const keep = (chunk: Buffer) => {
    state.text = (state.text + chunk.toString()).slice(-OUTPUT_KEEP_CHARS);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.on("exit", () => {
    state.exited = true;
  });
  return state;
}

function stopChild(child: ChildProcess, graceMs: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill("SIGTERM");
  });
}

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** Runs one `kasa …` command to its end (`--db` is the caller's to give). */
export function runKasa(args: string[], stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(BUN, [MAIN, ...args], { stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"], env: kasaEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** `kasa … --json`: the parsed output; a non-zero exit throws with what the command printed. */
export async function kasaJson<T>(args: string[]): Promise<T> {
  const r = await runKasa([...args, "--json"]);
  if (r.code !== 0) throw new Error(`kasa ${args.join(" ")} exited ${r.code}:\n${r.stderr}\n${r.stdout}`);
  return JSON.parse(r.stdout) as T;
}

/** The fields of kasa's answers these tests read (a body that is not a JSON object reads as {}). */
export type ApiJson = {
  paymentCode?: string;
  refundId?: string;
  status?: string;
  outcome?: string;
  now?: string;
  error?: { code?: string; message?: string };
};

export type ApiAnswer = { status: number; json: ApiJson; text: string };

/** One JSON request to an instance's API as the partner holding `key`. */
export async function api(base: string, key: string, method: "GET" | "POST", path: string, body?: unknown): Promise<ApiAnswer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json: typeof json === "object" && json !== null ? (json as ApiJson) : {}, text };
}
