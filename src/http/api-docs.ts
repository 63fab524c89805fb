import type { Deps } from "../deps";
import { openApiDocument } from "../openapi/document";
import { renderReference } from "../openapi/reference";
import type { PageRoute } from "./page";
import { toWebResponse } from "./pages/handoff";
import { renderPage } from "../html";
import { documentedRoutes } from "./routes";

// docs/api.md: GET /openapi.json (the document) and GET /docs (a reference page rendered on the
// server from it, no third-party assets). Public like the API description of any service: neither
// needs a key or draws on a budget. The document is built once per process.

export function apiDocsRoutes(deps: Deps): PageRoute[] {
  let cached: Record<string, unknown> | undefined;
  const doc = () => (cached ??= openApiDocument(documentedRoutes(), deps.config.baseUrl));
  return [
    {
      method: "GET",
      path: "/openapi.json",
      handle: () =>
        new Response(JSON.stringify(doc()), {
          headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-cache" },
        }),
    },
    {
      method: "GET",
      path: "/docs",
      handle: () => {
        const page = renderPage({ title: "kasa API reference", body: renderReference(doc()), nonce: deps.ids.nonce(), formActions: [] });
        const res = toWebResponse(page);
        // An English reference (docs/api.md leaves the language free); the shell says Turkish.
        return new Response(String(page.body).replace('<html lang="tr">', '<html lang="en">'), {
          status: res.status,
          headers: res.headers,
        });
      },
    },
  ];
}
