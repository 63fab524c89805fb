import type { EstSimulator } from "../../bank/est-sim/simulator";
import type { PageRoute } from "../page";

// Product 17: the EST / NestPay protocol simulator, served by the sandbox under /sim-est/. The
// gate and the API are the bank's own endpoints (HTML and XML, not kasa's pages); `calls` lists
// what the bank received, for integrators and tests ("which Auth, Void and Credit were sent").

export const EST_SIM_PATHS = { gate: "/sim-est/fim/est3Dgate", api: "/sim-est/fim/api", calls: "/sim-est/calls" } as const;

export function estSimPages(simulator: EstSimulator): PageRoute[] {
  return [
    { method: "POST", path: EST_SIM_PATHS.gate, handle: (event) => simulator.gate(event.req) },
    { method: "POST", path: EST_SIM_PATHS.api, handle: (event) => simulator.api(event.req) },
    {
      method: "GET",
      path: EST_SIM_PATHS.calls,
      handle: (event) => {
        const oid = event.url.searchParams.get("oid") ?? undefined;
        return new Response(JSON.stringify({ calls: simulator.calls(oid) }), {
          headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
        });
      },
    },
  ];
}
