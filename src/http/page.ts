import type { H3Event } from "h3";
import type { Deps } from "../deps";
import type { BudgetName } from "../domain/rate-limits/budgets";
import { recordAudit } from "../domain/users/audit";
import type { PanelSession } from "../domain/users/sessions";
import { fail, isApiError, statusOf, type ApiError } from "../errors";
import { errorPage } from "../html";
import { callerIpKey } from "./client-ip";
import { routeParams, type Method } from "./endpoint";
import { checkAccess, refuseForeignOrigin, resumeOrRedirect } from "./page-auth";
import { PAGE_MESSAGES } from "./page-messages";
import { readFormBody } from "./read";
import type { PanelRole } from "../store/rows";

/** Who may open a page: anyone, or a panel user with at least this role (docs/panel.md). */
export type PageAuth = "none" | `panel:${PanelRole}`;

/** What the pipeline hands a page: the panel session and its POST's form (read once, CSRF-checked). */
export type PageContext = { session: PanelSession | null; form: Record<string, string> | null; ip: string };

/**
 * A browser-facing route (handoff relay, sim-bank ACS, hosted link pages, the merchant panel):
 * answers HTML or a redirect. No API key. A refusal it does not render itself, and anything
 * unexpected, still ends as a page: see `pageHandler`.
 */
export type PageRoute = {
  method: Method;
  path: string;
  /** Default "none". A panel POST is also audited under `action` (docs/panel.md's audit log). */
  auth?: PageAuth;
  action?: string;
  /** Per-IP budgets, checked before anything else is read (429 page). */
  budgets?: readonly BudgetName[];
  handle(event: H3Event, traceId: string, ctx: PageContext): Promise<Response> | Response;
  /**
   * docs/decisions.md, Hardening: every buyer-facing page draws on `pages.ip` (pages-budget.ts) and refuses with an
   * HTML page; "json" refuses in the API envelope (the options the page's script asks for);
   * "exempt" draws nothing (the bank's signed callback, which carries a finished 3D step).
   */
  pagesBudget?: "json" | "exempt";
};

/** A catalog refusal as a page: the table's sentence, the code, the caller's detail and the traceId. */
export function refusalPage(deps: Deps, error: ApiError, traceId: string): Response {
  const detail = error.message === "" ? "" : ` (${error.message})`;
  const page = errorPage({
    code: error.code,
    message: `${PAGE_MESSAGES[error.code]}${detail}`,
    traceId,
    nonce: deps.ids.nonce(),
    status: statusOf(error.code),
  });
  return new Response(page.body, { status: page.status, headers: { ...page.headers, ...error.headers } });
}

function bugPage(deps: Deps, event: H3Event, error: unknown, traceId: string): Response {
  deps.log.error("unhandled error", { traceId, method: event.req.method, path: event.url.pathname, error });
  const page = errorPage({ code: "internal_error", message: PAGE_MESSAGES.internal_error, traceId, nonce: deps.ids.nonce(), status: 500 });
  return new Response(page.body, { status: 500, headers: page.headers });
}

/** budgets -> session (or none) -> CSRF and role -> handle -> HTML; a panel POST is audited either way. */
async function run(deps: Deps, route: PageRoute, event: H3Event, traceId: string): Promise<Response> {
  const ip = callerIpKey(event, deps.config.trustProxy);
  const budgets = route.budgets ?? [];
  if (
    budgets.length > 0 &&
    !deps.rateLimiter.tryAcquire(
      budgets.map((budget) => ({ budget, key: ip, multiplier: 1 })),
      deps.clock.nowMs(),
    )
  ) {
    fail("rate_limited", undefined, { "retry-after": "60" });
  }
  const auth = route.auth ?? "none";
  if (auth === "none") return route.handle(event, traceId, { session: null, form: null, ip });
  const resumed = await resumeOrRedirect(deps, event);
  if ("redirect" in resumed) return resumed.redirect;
  const session = resumed.session;
  const form = route.method === "POST" ? await readFormBody(event.req) : null;
  const audit = async (outcome: string) => {
    if (route.method !== "POST") return;
    const target = Object.values(routeParams(event)).join("/") || null;
    await deps.store.write((tx) =>
      recordAudit(tx, session.user, { action: route.action ?? route.path, target, outcome, ip }, deps.clock.nowMs()),
    );
  };
  try {
    if (route.method === "POST") {
      refuseForeignOrigin(deps, event.req.headers);
      // Every panel action draws on its user's budget, whichever address it comes from.
      if (!deps.rateLimiter.tryAcquire([{ budget: "panel.user", key: session.user.id, multiplier: 1 }], deps.clock.nowMs())) {
        fail("rate_limited", undefined, { "retry-after": "60" });
      }
    }
    checkAccess(session, auth.slice("panel:".length) as PanelRole, form);
    const res = await route.handle(event, traceId, { session, form, ip });
    await audit(res.status < 400 ? "ok" : `http_${res.status}`);
    return res;
  } catch (error) {
    await audit(isApiError(error) ? error.code : "internal_error");
    throw error;
  }
}

/**
 * The page pipeline's one error path: an ApiError a page did not render itself becomes a page with
 * its message; anything else is our bug, logged with its stack and answered as an HTML 500 with
 * the traceId (never the API's JSON envelope, which a browser would show raw).
 */
export function pageHandler(deps: Deps, route: PageRoute) {
  return async (event: H3Event): Promise<Response> => {
    const traceId = deps.ids.traceId();
    let res: Response;
    try {
      res = await run(deps, route, event, traceId);
    } catch (error) {
      res = isApiError(error) ? refusalPage(deps, error, traceId) : bugPage(deps, event, error, traceId);
    }
    res.headers.set("x-trace-id", traceId);
    return res;
  };
}
