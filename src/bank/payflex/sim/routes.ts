import type { BankPageRoute, SimulatorEnv } from "../../module";
import { handleAcs, handleTermUrl } from "./acs";
import { handleEnrollment } from "./mpi";
import { handleSearch } from "./search";
import { PAYFLEX_SIM_PATHS } from "./settings";
import { PayflexSimState } from "./state";
import { handleVpos } from "./vpos";

// The PayFlex protocol simulator's routes, served by the sandbox under /sim-payflex/: the MPI,
// the issuer's ACS and the MPI's TermUrl (buyer-facing pages), the VPOS and Search (server to
// server), and `calls`, what the bank received (for integrators and tests).

export const DEFAULT_SLOW_MS = 65_000;

export function payflexSimulatorRoutes(env: SimulatorEnv): BankPageRoute[] {
  const state = new PayflexSimState(env.nowMs);
  const slowMs = env.slowMs ?? DEFAULT_SLOW_MS;
  const server = (path: string, handle: BankPageRoute["handle"]): BankPageRoute => ({
    method: "POST",
    path,
    buyerFacing: false,
    readsForm: false,
    handle,
  });
  const page = (path: string, handle: BankPageRoute["handle"]): BankPageRoute => ({
    method: "POST",
    path,
    buyerFacing: true,
    readsForm: true,
    handle,
  });
  return [
    server(PAYFLEX_SIM_PATHS.mpi, ({ req, url }) => handleEnrollment(state, req, url.origin)),
    page(PAYFLEX_SIM_PATHS.acs, ({ form }) => handleAcs(state, form ?? {}, env.nonce())),
    page(PAYFLEX_SIM_PATHS.termUrl, ({ form }) => handleTermUrl(state, form ?? {}, env.nonce())),
    server(PAYFLEX_SIM_PATHS.vpos, ({ req }) => handleVpos(state, req, slowMs)),
    server(PAYFLEX_SIM_PATHS.search, ({ req }) => handleSearch(state, req)),
    {
      method: "GET",
      path: PAYFLEX_SIM_PATHS.calls,
      buyerFacing: false,
      readsForm: false,
      handle: ({ url }) =>
        new Response(JSON.stringify({ calls: state.calls(url.searchParams.get("id") ?? undefined) }), {
          headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
        }),
    },
  ];
}
