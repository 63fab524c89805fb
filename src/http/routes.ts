import type { Deps } from "../deps";
import type { ApiRoute } from "./endpoint";
import { getAcceptance } from "./handlers/acceptance";
import { getClock, moveClock, moveClockBody, type SandboxClockControl } from "./handlers/sandbox-clock";

// The whole API as one table (DESIGN.md): method, path, gate, budgets, Retry-After, body schema,
// handler. Budget names are product 12's.

const RETRY_AFTER_S = 60;

export function apiRoutes(_deps: Deps): ApiRoute[] {
  return [
    { method: "GET", path: "/v1/payment-acceptance", gate: true, budgets: ["reads.key"], retryAfterS: RETRY_AFTER_S, handle: getAcceptance },
  ];
}

/** product 13: only in sandbox mode; elsewhere these paths are plain 404s. */
export function sandboxRoutes(clock: SandboxClockControl): ApiRoute[] {
  return [
    { method: "GET", path: "/sandbox/clock", gate: false, budgets: [], retryAfterS: null, handle: getClock(clock) },
    { method: "POST", path: "/sandbox/clock", gate: false, budgets: [], retryAfterS: null, body: moveClockBody, handle: moveClock(clock) as ApiRoute["handle"] },
  ];
}
