import { H3 } from "h3";
import type { Deps } from "./deps";
import { endpoint, toErrorResponse, type ApiRoute } from "./http/endpoint";
import { checkHeaderSize, codeOfHttpError, fallbackResponse, rawPathOf } from "./http/fallback";
import { pageHandler, type PageRoute } from "./http/page";

/** Builds the h3 app from the route tables; unknown paths are 404, known paths with another method 405. */
export function createApp(deps: Deps, api: ApiRoute[], pages: PageRoute[] = []): H3 {
  // Whatever h3 raises before (or around) a handler is answered by kasa, never by h3's default body.
  const app = new H3({
    silent: true,
    onRequest: (event) => checkHeaderSize(event.req),
    onError: (error, event) => {
      const { code, message } = codeOfHttpError(error);
      if (code === "internal_error") deps.log.error("unhandled error in the HTTP layer", { path: rawPathOf(event.req.url), error });
      return fallbackResponse(deps, rawPathOf(event.req.url), code, message);
    },
  });
  for (const route of api) app.on(route.method, route.path, endpoint(deps, route));
  for (const page of pages) app.on(page.method, page.path, pageHandler(deps, page));
  const patterns = [...api, ...pages].map((r) => ({ method: r.method, re: toRegExp(r.path) }));
  app.all("/**", (event) => {
    const path = event.url.pathname;
    const known = patterns.some((p) => p.re.test(path));
    return fallbackResponse(deps, rawPathOf(event.req.url), known ? "method_not_allowed" : "not_found");
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
