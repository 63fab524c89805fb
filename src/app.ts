import { H3 } from "h3";
import type { Deps } from "./deps";
import { fail } from "./errors";
import { endpoint, toErrorResponse, type ApiRoute } from "./http/endpoint";
import { pageHandler, type PageRoute } from "./http/page";

/** Builds the h3 app from the route tables; unknown paths are 404, known paths with another method 405. */
export function createApp(deps: Deps, api: ApiRoute[], pages: PageRoute[] = []): H3 {
  const app = new H3();
  for (const route of api) app.on(route.method, route.path, endpoint(deps, route));
  for (const page of pages) app.on(page.method, page.path, pageHandler(deps, page));
  const patterns = [...api, ...pages].map((r) => ({ method: r.method, re: toRegExp(r.path) }));
  app.all("/**", (event) => {
    const traceId = deps.ids.traceId();
    try {
      const path = event.url.pathname;
      const known = patterns.some((p) => p.re.test(path));
      return fail(known ? "method_not_allowed" : "not_found");
    } catch (error) {
      return toErrorResponse(deps, error, traceId, event);
    }
  });
  return app;
}

function toRegExp(path: string): RegExp {
  const body = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}/?$`);
}
