import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// What every benchmark needs: ports, processes and their CPU, wrk, a quiet machine. Loopback only.

export const HOST = "127.0.0.1";
const CLOCK_TICKS_PER_S = 100;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** wrk from Debian's packages, installed when missing (the bench machine is ours, as root). */
export function ensureWrk(): void {
  if (spawnSync("sh", ["-c", "command -v wrk"]).status === 0) return;
  process.stderr.write("[bench] wrk is missing: apt-get update && apt-get install -y wrk\n");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "wrk"]]) {
    const r = spawnSync("apt-get", args, { env, stdio: "inherit" });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed: wrk is needed for npm run bench`);
  }
}

/** CPU seconds a process used so far (utime + stime of /proc/PID/stat). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** Resident memory of a process in MiB. */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Busy and total jiffies of the whole machine. */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * Waits (up to `budget.ms` in all, shared by the run) for the machine to be below 20% busy; answers
 * the share (0-1) busy in the last half second, printed beside the scenario's figures.
 */
export async function waitForQuiet(budget: { ms: number }): Promise<number> {
  for (;;) {
    const a = machineTicks();
    await sleep(500);
    const b = machineTicks();
    budget.ms -= 500;
    const busy = (b.busy - a.busy) / Math.max(1, b.total - a.total);
    if (busy < 0.2 || budget.ms <= 0) return busy;
  }
}

export type Proc = {
  child: ChildProcess;
  pid: number;
  output: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<number | null>;
};

export function startProcess(command: string, args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let out = "";
  child.stdout!.on("data", (d) => (out += String(d)));
  child.stderr!.on("data", (d) => (out += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    pid: child.pid!,
    output: () => out,
    exited,
    stop: async () => {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * Waits until `proc` printed nothing for `quietMs` (kasa logs a line per request), at most `maxMs`:
 * wrk leaves at its deadline with requests still queued in the server, and a server stopped then
 * cuts them short (kasa on PostgreSQL then closed its store under them and took 15 s to exit).
 */
export async function settled(proc: Proc, quietMs = 300, maxMs = 10_000): Promise<void> {
  const until = performance.now() + maxMs;
  let seen = -1;
  while (performance.now() < until && proc.output().length !== seen) {
    seen = proc.output().length;
    await sleep(quietMs);
  }
}

/** Polls `url` until it answers at all; the milliseconds it took from `sinceMs`. */
export async function waitForAnswer(url: string, sinceMs: number, proc: Proc, timeoutMs = 120_000): Promise<number> {
  while (performance.now() - sinceMs < timeoutMs) {
    try {
      await fetch(url);
      return performance.now() - sinceMs;
    } catch {
      if (proc.child.exitCode !== null) throw new Error(`server exited: ${proc.output()}`);
      await sleep(10);
    }
  }
  throw new Error(`no answer from ${url} in ${timeoutMs} ms: ${proc.output()}`);
}

export type WrkResult = { rps: number; p99Ms: number; requests: number; errors: number };

/**
 * One wrk run (1 thread, 64 connections unless told) with an optional Lua script; errors are
 * non-2xx/3xx or socket errors. wrk's LuaJIT starts every process with the same random seed, so a
 * script's `prefix` would repeat from run to run (the measured run replaying the warm-up's codes,
 * two wrk at once sending the same ones): each run seeds it afresh.
 */
export function wrk(url: string, seconds: number, script: string | null, workDir: string, connections = 64): Promise<WrkResult> {
  const args = ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency"];
  if (script !== null) {
    const path = join(workDir, `wrk-${Math.random().toString(36).slice(2)}.lua`);
    writeFileSync(path, `math.randomseed(${Math.floor(Math.random() * 2 ** 31)})\n${script}`);
    args.push("-s", path);
  }
  args.push(url);
  return new Promise((resolve, reject) => {
    const c = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    c.stdout.on("data", (d) => (out += String(d)));
    c.stderr.on("data", (d) => (out += String(d)));
    c.on("exit", () => {
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
      if (!rps) return reject(new Error(`wrk printed no rate:\n${out}`));
      const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
      const scale = { us: 0.001, ms: 1, s: 1000 } as const;
      const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out);
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      resolve({
        rps: Number(rps[1]),
        p99Ms: p99 ? Number(p99[1]) * scale[p99[2] as keyof typeof scale] : Number.NaN,
        requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
        errors: Number(errors?.[1] ?? 0) + (socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
      });
    });
  });
}

/** A wrk Lua script sending `method` with a JSON body built per request by `bodyExpr` (Lua, `n` = counter). */
export function wrkScript(method: string, path: string, key: string | null, bodyExpr: string | null): string {
  const auth = key === null ? "" : `wrk.headers["Authorization"] = "Bearer ${key}"\n`;
  return `${auth}wrk.headers["Content-Type"] = "application/json"
local prefix = tostring(math.random(1, 1000000000))
local n = 0
request = function()
  n = n + 1
  return wrk.format("${method}", "${path}", nil, ${bodyExpr ?? "nil"})
end
`;
}
