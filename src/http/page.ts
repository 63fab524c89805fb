import type { H3Event } from "h3";
import type { Method } from "./endpoint";

/**
 * A browser-facing route (handoff relay, sim-bank ACS, hosted link pages): answers HTML or a
 * redirect itself. No API key; errors are rendered as pages by the handler's own module.
 */
export type PageRoute = {
  method: Method;
  path: string;
  handle(event: H3Event, traceId: string): Promise<Response> | Response;
  /**
   * Product 23: every buyer-facing page draws on `pages.ip` (pages-budget.ts) and refuses with an
   * HTML page; "json" refuses in the API envelope (the options the page's script asks for);
   * "exempt" draws nothing (the bank's signed callback, which carries a finished 3D step).
   */
  pagesBudget?: "json" | "exempt";
};
