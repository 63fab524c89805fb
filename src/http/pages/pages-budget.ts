import type { H3Event } from "h3";
import type { Deps } from "../../deps";
import { ApiError } from "../../errors";
import { callerIpKey } from "../client-ip";
import { errorResponse } from "../envelope";
import type { PageRoute } from "../page";
import { toWebResponse } from "./handoff";
import { errorPage } from "../../html";

// docs/decisions.md, Hardening: buyer-facing pages have their own per-IP budget, `pages.ip`, never a partner's API
// budget, so one public link URL cannot drain what the partner's integration lives on, and a
// script cannot try cards faster than the budget. A refusal is decided before the page reads its
// body or the store, so it costs no write and no bank call.

const RETRY_AFTER_S = 60;
const MESSAGE = "Çok fazla istek gönderildi. Lütfen bir dakika sonra yeniden deneyin.";

function refusal(deps: Deps, route: PageRoute, traceId: string): Response {
  const headers = { "retry-after": String(RETRY_AFTER_S) };
  if (route.pagesBudget === "json") return errorResponse(new ApiError("rate_limited", undefined, headers), traceId);
  const res = toWebResponse(errorPage({ code: "rate_limited", message: MESSAGE, traceId, nonce: deps.ids.nonce(), status: 429 }));
  res.headers.set("retry-after", String(RETRY_AFTER_S));
  return res;
}

const admitted = (deps: Deps, event: H3Event): boolean =>
  deps.rateLimiter.tryAcquire([{ budget: "pages.ip", key: callerIpKey(event, deps.config.trustProxy) }], deps.clock.nowMs());

/** The routes, each drawing one request on the caller's `pages.ip` first (unless exempt). */
export function withPagesBudget(deps: Deps, routes: readonly PageRoute[]): PageRoute[] {
  return routes.map((route) =>
    route.pagesBudget === "exempt"
      ? route
      : {
          ...route,
          handle: (event, traceId, ctx) => (admitted(deps, event) ? route.handle(event, traceId, ctx) : refusal(deps, route, traceId)),
        },
  );
}
