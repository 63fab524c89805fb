import type { BankPageRoute, SimulatorEnv } from "../../module";
import { GARANTI_SIM_ACCOUNT } from "./accounts";
import { GARANTI_SIM_PATHS } from "./settings";
import { createGarantiSimulator } from "./simulator";

// The Garanti simulator's routes, served by the sandbox under /sim-garanti/. The gate and the API
// are the bank's own endpoints (HTML and XML, not kasa's pages); `calls` lists what the bank
// received, for integrators and tests ("which sales, void and refund were sent").

export function garantiSimulatorRoutes(env: SimulatorEnv): BankPageRoute[] {
  const simulator = createGarantiSimulator({ accounts: [GARANTI_SIM_ACCOUNT], nowMs: env.nowMs, nonce: env.nonce, slowMs: env.slowMs });
  const serverRoute = (method: "GET" | "POST", path: string, handle: BankPageRoute["handle"]): BankPageRoute => ({
    method,
    path,
    buyerFacing: false,
    readsForm: false,
    handle,
  });
  return [
    serverRoute("POST", GARANTI_SIM_PATHS.gate, ({ req }) => simulator.gate(req)),
    serverRoute("POST", GARANTI_SIM_PATHS.api, ({ req }) => simulator.api(req)),
    serverRoute("GET", GARANTI_SIM_PATHS.calls, ({ url }) => {
      const orderId = url.searchParams.get("oid") ?? undefined;
      return new Response(JSON.stringify({ calls: simulator.calls(orderId) }), {
        headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      });
    }),
  ];
}
