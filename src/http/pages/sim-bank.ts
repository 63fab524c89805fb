import { SIM_BANK_PATHS } from "../../bank/sim/sim-bank";
import type { Deps } from "../../deps";
import type { PageRoute } from "../page";
import { readFormBody } from "../read";
import { handoffErrorPage, toWebResponse } from "./handoff";
import { isApiError } from "../../errors";

// The simulated bank's ACS (product 6.3), served by the same binary under /sim-bank/. The relay's
// auto-submitting page posts the bank's 3D form here; the page it answers posts the one-time code
// to the relay's callback. Nothing here is logged: the posted form carries the card.

/** Served in every mode: a connection with `"bank": "sim"` may exist in serve too (product 17). */
export function simBankPages(deps: Deps): PageRoute[] {
  return [
    {
      method: "POST",
      path: SIM_BANK_PATHS.acs,
      async handle(event, traceId) {
        let form: Record<string, string>;
        try {
          form = await readFormBody(event.req);
        } catch (error) {
          if (!isApiError(error)) throw error;
          return handoffErrorPage(deps, error.code, true, traceId);
        }
        return toWebResponse(deps.banks.sim.renderAcsPage(form, { nonce: deps.ids.nonce(), nowMs: deps.clock.nowMs(), traceId }));
      },
    },
  ];
}
