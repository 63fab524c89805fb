import { Ajv } from "ajv";
import { documentedRoutes } from "../../src/http/routes";
import { openApiDocument, operationKey, toOpenApiPath } from "../../src/openapi/document";

// Issue 21: every answer the API tests receive is checked against its operation in the OpenAPI
// document (status documented, X-Trace-Id present, body valid, error code listed under its status,
// Retry-After where documented). A mismatch throws inside the request helper, so the test that
// produced the answer fails. Paths that are not API operations (pages, unknown paths) are skipped.

type Json = Record<string, any>;

const doc = openApiDocument(documentedRoutes(), "http://kasa.test") as Json;
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: "kasa", components: doc.components }, "kasa");
const compiled = new Map<string, ReturnType<Ajv["compile"]>>();

const routes = documentedRoutes().map((route) => ({
  route,
  re: new RegExp(`^${route.path.replace(/:[A-Za-z]+/g, "[^/]+")}$`),
  key: operationKey(route),
}));

function validatorFor(id: string, schema: Json) {
  let v = compiled.get(id);
  if (!v) {
    v = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"kasa#/components/')));
    compiled.set(id, v);
  }
  return v;
}

/** Throws when the answer does not match the document; `path` without its query. */
export function checkAgainstOpenApi(method: string, path: string, status: number, headers: Headers, body: unknown): void {
  const match = routes.find((r) => r.route.method === method && r.re.test(path));
  if (!match) return;
  const op = doc.paths[toOpenApiPath(match.route.path)]?.[method.toLowerCase()] as Json | undefined;
  if (!op) return;
  const where = `${method} ${path} -> ${status} (${op.operationId})`;
  const response = op.responses[String(status)] as Json | undefined;
  if (!response) throw new Error(`OpenAPI: ${where}: status not documented; body ${JSON.stringify(body)}`);
  if (!headers.get("x-trace-id")) throw new Error(`OpenAPI: ${where}: no X-Trace-Id header`);
  const codes = response["x-error-codes"] as string[] | undefined;
  if (codes && !codes.includes((body as Json)?.error?.code)) {
    throw new Error(`OpenAPI: ${where}: error code ${(body as Json)?.error?.code} not documented (documented: ${codes.join(", ")})`);
  }
  if (status === 429 && response.headers?.["Retry-After"] && !headers.get("retry-after"))
    throw new Error(`OpenAPI: ${where}: no Retry-After`);
  const schema = response.content?.["application/json"]?.schema as Json | undefined;
  if (!schema) return;
  const validate = validatorFor(`${op.operationId} ${status}`, schema);
  if (!validate(body))
    throw new Error(`OpenAPI: ${where}: body does not match: ${ajv.errorsText(validate.errors)}; body ${JSON.stringify(body)}`);
}
