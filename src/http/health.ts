import { wallNowMs } from "../clock";
import type { Deps } from "../deps";
import type { PageRoute } from "./page";

/** docs/operating.md: a write must commit within this long for /readyz to answer 200. */
export const READY_WRITE_TIMEOUT_MS = 1_000;
/** docs/operating.md: the timer loop must have run within this long (it beats every second when started). */
export const READY_TIMER_STALE_MS = 5_000;

const PROBE_KEY = "health.probe";

export type HealthOptions = { wallNowMs?: () => number; writeTimeoutMs?: number };

/**
 * docs/operating.md: /healthz and /readyz for load balancers and systemd. They are page routes, not API
 * routes, so they never pass the pre-auth IP gate, a key check or a rate budget.
 */
export function healthRoutes(deps: Deps, opts: HealthOptions = {}): PageRoute[] {
  const wall = opts.wallNowMs ?? wallNowMs;
  const writeTimeoutMs = opts.writeTimeoutMs ?? READY_WRITE_TIMEOUT_MS;
  return [
    { method: "GET", path: "/healthz", handle: () => json(200, { status: "ok" }) },
    {
      method: "GET",
      path: "/readyz",
      async handle() {
        const failing: string[] = [];
        if (!(await writeCommits(deps, writeTimeoutMs))) failing.push("database");
        const last = deps.timers.lastRanAtMs;
        if (last === undefined || wall() - last > READY_TIMER_STALE_MS) failing.push("timers");
        return failing.length === 0 ? json(200, { status: "ok" }) : json(503, { status: "unavailable", failing });
      },
    },
  ];
}

/** Queues one small write through the group commit and waits at most `timeoutMs` for its COMMIT. */
async function writeCommits(deps: Deps, timeoutMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const write = deps.store
    .write((tx) => tx.meta.set(PROBE_KEY, String(deps.clock.nowMs())))
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([write, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}
