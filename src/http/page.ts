import type { H3Event } from "h3";
import type { Deps } from "../deps";
import { isApiError, statusOf, type ApiError } from "../errors";
import { errorPage } from "../html";
import type { Method } from "./endpoint";
import { PAGE_MESSAGES } from "./page-messages";

/**
 * A browser-facing route (handoff relay, sim-bank ACS, hosted link pages, the merchant panel):
 * answers HTML or a redirect. No API key. A refusal it does not render itself, and anything
 * unexpected, still ends as a page: see `pageHandler`.
 */
export type PageRoute = { method: Method; path: string; handle(event: H3Event, traceId: string): Promise<Response> | Response };

/** A catalog refusal as a page: the table's sentence, the code, the caller's detail and the traceId. */
export function refusalPage(deps: Deps, error: ApiError, traceId: string): Response {
  const detail = error.message === "" ? "" : ` (${error.message})`;
  const page = errorPage({ code: error.code, message: `${PAGE_MESSAGES[error.code]}${detail}`, traceId, nonce: deps.ids.nonce(), status: statusOf(error.code) });
  return new Response(page.body, { status: page.status, headers: { ...page.headers, ...error.headers } });
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
      res = await route.handle(event, traceId);
    } catch (error) {
      if (isApiError(error)) {
        res = refusalPage(deps, error, traceId);
      } else {
        deps.log.error("unhandled error", { traceId, method: event.req.method, path: event.url.pathname, error });
        const page = errorPage({ code: "internal_error", message: PAGE_MESSAGES.internal_error, traceId, nonce: deps.ids.nonce(), status: 500 });
        res = new Response(page.body, { status: 500, headers: page.headers });
      }
    }
    res.headers.set("x-trace-id", traceId);
    return res;
  };
}
