import type { Deps } from "../deps";
import type { PageRoute } from "./page";
import { handoffPages } from "./pages/handoff";
import { simBankPages } from "./pages/sim-bank";

// Every browser-facing route, as one table (the API's is routes.ts).

export function pageRoutes(deps: Deps): PageRoute[] {
  return [
    // interface 4.7 / product 6: POST /handoff and POST /handoff/callback/:attemptId.
    ...handoffPages(deps),
    // product 6.3: the simulated bank's ACS, POST /sim-bank/acs (only when the bank is `sim`).
    ...simBankPages(deps),
  ];
}
