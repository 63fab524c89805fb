import type { BankPageRoute, SimulatorEnv } from "../../module";
import { handleApi } from "./api";
import { handleGate } from "./gate";
import { handleReport } from "./report";
import { AKBANK_SIM_PATHS } from "./settings";
import { AkbankSimState } from "./state";

// The AkbankPos protocol simulator's routes, served by the sandbox under /sim-akbank/: the 3D gate
// (HTML), the JSON API, and `calls`, which lists what the bank received (for integrators and tests).

export const DEFAULT_SLOW_MS = 65_000;

export interface AkbankSimulator {
  gate(req: Request): Promise<Response>;
  api(req: Request): Promise<Response>;
  state: AkbankSimState;
}

export function createAkbankSimulator(options: { nowMs(): number; nonce(): string; slowMs?: number }): AkbankSimulator {
  const state = new AkbankSimState(() => options.nowMs());
  return {
    gate: (req) => handleGate(state, req, options.nonce()),
    api: (req) => handleApi(state, req, options.slowMs ?? DEFAULT_SLOW_MS),
    state,
  };
}

export function akbankSimulatorRoutes(env: SimulatorEnv): BankPageRoute[] {
  const simulator = createAkbankSimulator({ nowMs: env.nowMs, nonce: env.nonce, slowMs: env.slowMs });
  const route = (method: "GET" | "POST", path: string, handle: BankPageRoute["handle"]): BankPageRoute => ({
    method,
    path,
    buyerFacing: false,
    readsForm: false,
    handle,
  });
  return [
    route("POST", AKBANK_SIM_PATHS.gate, ({ req }) => simulator.gate(req)),
    route("POST", AKBANK_SIM_PATHS.api, ({ req }) => simulator.api(req)),
    route("POST", AKBANK_SIM_PATHS.report, ({ req }) => handleReport(simulator.state, req)),
    route("GET", AKBANK_SIM_PATHS.calls, ({ url }) => {
      const orderId = url.searchParams.get("orderId") ?? undefined;
      return new Response(JSON.stringify({ calls: simulator.state.calls(orderId) }), {
        headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      });
    }),
  ];
}
