import type { BankPageRoute, SimulatorEnv } from "../../module";
import { EST_SIM_ACCOUNT } from "./accounts";
import { EST_SIM_PATHS } from "./settings";
import { createEstSimulator } from "./simulator";

// The EST / NestPay protocol simulator's routes, served by the sandbox under /sim-est/. The gate
// and the API are the bank's own endpoints (HTML and XML, not kasa's pages); `calls` lists what
// the bank received, for integrators and tests ("which Auth, Void and Credit were sent").

export function estSimulatorRoutes(env: SimulatorEnv): BankPageRoute[] {
  const simulator = createEstSimulator({ accounts: [EST_SIM_ACCOUNT], nowMs: env.nowMs, nonce: env.nonce, slowMs: env.slowMs });
  const serverRoute = (method: "GET" | "POST", path: string, handle: BankPageRoute["handle"]): BankPageRoute => ({
    method,
    path,
    buyerFacing: false,
    readsForm: false,
    handle,
  });
  return [
    serverRoute("POST", EST_SIM_PATHS.gate, ({ req }) => simulator.gate(req)),
    serverRoute("POST", EST_SIM_PATHS.api, ({ req }) => simulator.api(req)),
    serverRoute("GET", EST_SIM_PATHS.calls, ({ url }) => {
      const oid = url.searchParams.get("oid") ?? undefined;
      return new Response(JSON.stringify({ calls: simulator.calls(oid) }), {
        headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      });
    }),
  ];
}
