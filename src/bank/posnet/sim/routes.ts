import type { BankPageRoute, SimulatorEnv } from "../../module";
import { POSNET_SIM_ACCOUNT, type PosnetSimAccount } from "./accounts";
import { handleApi } from "./api";
import { handleGate } from "./gate";
import { POSNET_SIM_PATHS } from "./settings";
import { type PosnetSimCall, PosnetSimState } from "./state";

// The YapıKredi Posnet protocol simulator, served by the sandbox under /sim-posnet/ on the bank's
// own paths: the XML API and the 3D page. `calls` lists what the bank received, for integrators and
// tests ("which oosTranData, reverse and return were sent").

export const DEFAULT_SLOW_MS = 65_000;

export interface PosnetSimulator {
  api(req: Request): Promise<Response>;
  gate(req: Request): Promise<Response>;
  calls(order?: string): readonly PosnetSimCall[];
}

export function createPosnetSimulator(options: {
  accounts: readonly PosnetSimAccount[];
  nowMs(): number;
  nonce(): string;
  slowMs?: number;
}): PosnetSimulator {
  const state = new PosnetSimState(options.accounts, () => options.nowMs());
  const slowMs = options.slowMs ?? DEFAULT_SLOW_MS;
  return {
    api: (req) => handleApi(state, req, slowMs),
    gate: (req) => handleGate(state, req, options.nonce()),
    calls: (order) => state.calls(order),
  };
}

export function posnetSimulatorRoutes(env: SimulatorEnv): BankPageRoute[] {
  const simulator = createPosnetSimulator({ accounts: [POSNET_SIM_ACCOUNT], nowMs: env.nowMs, nonce: env.nonce, slowMs: env.slowMs });
  const route = (method: "GET" | "POST", path: string, handle: BankPageRoute["handle"]): BankPageRoute => ({
    method,
    path,
    buyerFacing: false,
    readsForm: false,
    handle,
  });
  return [
    route("POST", POSNET_SIM_PATHS.api, ({ req }) => simulator.api(req)),
    route("POST", POSNET_SIM_PATHS.gate, ({ req }) => simulator.gate(req)),
    route("GET", POSNET_SIM_PATHS.calls, ({ url }) => {
      const order = url.searchParams.get("order") ?? undefined;
      return new Response(JSON.stringify({ calls: simulator.calls(order) }), {
        headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      });
    }),
  ];
}
