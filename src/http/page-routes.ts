import type { Deps } from "../deps";
import type { PageRoute } from "./page";
import { handoffPages } from "./pages/handoff";
import { linkPages } from "./pages/link-pages";
import { withPagesBudget } from "./pages/pages-budget";

// Every browser-facing route of kasa's own, as one table (the API's is routes.ts; the banks'
// simulators add theirs in bank-pages.ts).

export function pageRoutes(deps: Deps): PageRoute[] {
  // docs/decisions.md, Hardening: each draws on the buyer's `pages.ip` budget first (the bank's callback excepted).
  return withPagesBudget(deps, [
    // docs/checkout.md, The handoff relay and the 3D step: POST /handoff and POST /handoff/callback/:attemptId.
    ...handoffPages(deps),
    // docs/contract.md, Payment links / Link states / redirectUrl; docs/checkout.md, Payment link pages; docs/decisions.md, Readings of the contract: the hosted link pages. GET /l/:token, POST
    // /l/:token/options (JSON), the no-JS steps POST /l/:token/installments and /card, POST
    // /l/:token/pay, GET /l/:token/result.
    ...linkPages(deps),
  ]);
}
