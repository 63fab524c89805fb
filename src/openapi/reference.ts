import { html, type SafeHtml } from "../html";

// docs/api.md: GET /docs, the OpenAPI document as a readable page, rendered on the server (no
// scripts, no third-party assets): every operation with its summary, parameters, request body,
// answers and error codes, then the webhooks.

type Json = Record<string, any>;

const schemaText = (schema: unknown): string => JSON.stringify(schema, null, 2);

function operationHtml(method: string, path: string, op: Json): SafeHtml {
  const params: Json[] = op.parameters ?? [];
  const responses = Object.entries(op.responses as Json);
  return html`<section>
<h3><code>${method.toUpperCase()} ${path}</code></h3>
<p>${op.summary}</p>
${params.length > 0 && html`<h4>Parameters</h4><ul>${params.map((p) => html`<li><code>${p.name}</code> (${p.in}${p.required ? ", required" : ""})${p.description ? html`: ${p.description}` : ""}</li>`)}</ul>`}
${op.requestBody && html`<h4>Request body</h4><pre>${schemaText(op.requestBody.content["application/json"].schema)}</pre>`}
<h4>Answers</h4>
<ul>${responses.map(([status, r]) => html`<li><strong>${status}</strong> ${r["x-error-codes"] ? html`${(r["x-error-codes"] as string[]).map((c) => html`<code>${c}</code> `)}` : r.description}</li>`)}</ul>
</section>`;
}

export function renderReference(doc: Json): SafeHtml {
  const paths = Object.entries(doc.paths as Json);
  const hooks = Object.entries(doc.webhooks as Json);
  return html`<h1>${doc.info.title} ${doc.info.version}</h1>
<p>${doc.info.description}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Authentication: <code>Authorization: Bearer kasa_sk_…</code>. Every answer carries <code>X-Trace-Id</code>; errors are <code>{"error":{"code","message","traceId"}}</code>.</p>
<h2>Operations</h2>
${paths.flatMap(([path, methods]) => Object.entries(methods as Json).map(([method, op]) => operationHtml(method, path, op as Json)))}
<h2>Webhooks</h2>
<p>POST to the partner's URL, signed over the raw body; thin triggers: fetch the current state by query.</p>
<ul>${hooks.map(([type, hook]) => html`<li><code>${type}</code>: body <code>${Object.keys((hook as Json).post.requestBody.content["application/json"].schema.properties).join(", ")}</code></li>`)}</ul>`;
}
