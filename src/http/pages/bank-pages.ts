import type { BankModule, BankPageRoute } from "../../bank/module";
import type { Deps } from "../../deps";
import { isApiError } from "../../errors";
import type { PageRoute } from "../page";
import { readFormBody } from "../read";
import { handoffErrorPage, toWebResponse } from "./handoff";
import { withPagesBudget } from "./pages-budget";

// The banks' protocol simulators (docs/banks.md, "Simulators"), served by the same binary: a
// bank's route is described without h3 in its folder and becomes a page route here. Pages the
// buyer sees (the simulated bank's ACS) draw on the buyer's `pages.ip` budget like kasa's own
// pages; a bank's server-to-server API does not. Nothing here is logged: a posted form may carry
// the card.

/** Which simulators to serve: those a bank needs in every mode, and all of them in the sandbox (or when a test asks). */
export type SimulatorChoice = { all: boolean; slowMs?: number };

function toPageRoute(deps: Deps, route: BankPageRoute): PageRoute {
  return {
    method: route.method,
    path: route.path,
    async handle(event, traceId) {
      let form: Record<string, string> | null = null;
      if (route.readsForm) {
        try {
          form = await readFormBody(event.req);
        } catch (error) {
          if (!isApiError(error)) throw error;
          return handoffErrorPage(deps, error.code, true, traceId);
        }
      }
      const answer = await route.handle({ req: event.req, url: event.url, form, traceId });
      return answer instanceof Response ? answer : toWebResponse(answer);
    },
  };
}

export function bankSimulatorPages(deps: Deps, modules: readonly BankModule[], choice: SimulatorChoice): PageRoute[] {
  const routes = modules.flatMap((bank) => {
    const simulator = bank.simulator;
    if (!simulator || (simulator.serve === "sandbox" && !choice.all)) return [];
    return simulator.routes({
      nowMs: () => deps.clock.nowMs(),
      nonce: () => deps.ids.nonce(),
      gateway: () => deps.banks.forBank(bank.id),
      slowMs: choice.slowMs,
    });
  });
  return [
    ...withPagesBudget(
      deps,
      routes.filter((r) => r.buyerFacing).map((r) => toPageRoute(deps, r)),
    ),
    ...routes.filter((r) => !r.buyerFacing).map((r) => toPageRoute(deps, r)),
  ];
}
