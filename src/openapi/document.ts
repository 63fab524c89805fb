import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import pkg from "../../package.json" with { type: "json" };
import { WEBHOOK_EVENT_FAMILIES, FAMILY_FIELDS } from "../domain/webhooks/events";
import { HEADER_PREFIXES } from "../domain/webhooks/sign";
import { ERROR_CATALOG, type ErrorCode } from "../errors";
import type { ApiRoute } from "../http/endpoint";
import examples from "./examples.json" with { type: "json" };
import { BODY_ERRORS, COMMON_ERRORS, OPERATIONS, type OperationDoc } from "./operations";
import * as r from "./records";

// Issue 21, docs/api.md: the OpenAPI 3.1 description of every API operation, generated from the
// route table (paths, methods, budgets' Retry-After), the valibot schemas the endpoints parse with
// (request bodies) and the record schemas of ./records.ts (responses), with every error code an
// operation can answer grouped by its status, and the webhooks under `webhooks`. Examples are real
// responses the test suite recorded (examples.json, refreshed by `npm run openapi:examples`).

type Json = Record<string, unknown>;

/** A valibot schema as JSON Schema (transforms and other runtime-only actions are left out). */
export function toSchema(schema: v.GenericSchema): Json {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { errorMode: "ignore" }) as Json;
  return rest;
}

/** `/v1/payments/:paymentCode` -> `/v1/payments/{paymentCode}`. */
export const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z]+)/g, "{$1}");
export const operationKey = (route: Pick<ApiRoute, "method" | "path">): string => `${route.method} ${route.path}`;

const TRACE_HEADER = { description: "The trace id of this answer (also in an error's body).", schema: { type: "string", pattern: "^tr_" } };
const RETRY_HEADER = { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } };

/** The codes an operation can answer, by HTTP status. */
export function errorCodesByStatus(route: ApiRoute, doc: OperationDoc): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>([...COMMON_ERRORS, ...(route.body ? BODY_ERRORS : []), ...doc.errors]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOG[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

function operation(route: ApiRoute, doc: OperationDoc): Json {
  const responses: Json = {};
  const example = (examples as Record<string, { status: number; body: unknown } | undefined>)[doc.operationId];
  for (const [status, schema] of Object.entries(doc.responses)) {
    const content =
      schema === null
        ? undefined
        : {
            "application/json": {
              schema: toSchema(schema),
              ...(example && String(example.status) === status ? { example: example.body } : {}),
            },
          };
    responses[status] = { description: doc.summary, headers: { "X-Trace-Id": TRACE_HEADER }, ...(content ? { content } : {}) };
  }
  for (const [status, codes] of errorCodesByStatus(route, doc)) {
    const headers: Json = { "X-Trace-Id": TRACE_HEADER };
    if (status === 429 && route.retryAfterS !== null) headers["Retry-After"] = RETRY_HEADER;
    responses[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_CATALOG[c][1]}`).join(" "),
      headers,
      "x-error-codes": codes,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  const queryParams = Object.entries(doc.query ?? {}).map(([name, q]) => ({
    name,
    in: "query",
    required: false,
    description: q.description,
    schema: q.schema,
  }));
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    tags: [route.path.startsWith("/sandbox") ? "sandbox" : route.path.split("/")[2]],
    ...(pathParams.length + queryParams.length > 0 ? { parameters: [...pathParams, ...queryParams] } : {}),
    ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(route.body) } } } } : {}),
    responses,
  };
}

function webhooks(): Json {
  const headers = HEADER_PREFIXES.flatMap((prefix) => [
    {
      name: `${prefix}Signature`,
      in: "header",
      required: true,
      description: "HMAC-SHA256 of the raw body with the partner's webhook secret.",
      schema: { type: "string" },
    },
    {
      name: `${prefix}Timestamp`,
      in: "header",
      required: true,
      description: "When the event occurred (informational; not signed).",
      schema: { type: "string" },
    },
    {
      name: `${prefix}Delivery-Id`,
      in: "header",
      required: true,
      description: "The event id; deduplicate on it.",
      schema: { type: "string" },
    },
  ]);
  const out: Json = {};
  for (const [type, family] of Object.entries(WEBHOOK_EVENT_FAMILIES)) {
    const fields = FAMILY_FIELDS[family] as readonly string[];
    const schema = {
      type: "object",
      required: ["id", "type", "occurredAt", ...fields],
      properties: {
        id: { type: "string", pattern: "^evt_" },
        type: { const: type },
        occurredAt: { type: "string", format: "date-time" },
        ...Object.fromEntries(fields.map((f) => [f, { type: "string" }])),
      },
      additionalProperties: false,
    };
    out[type] = {
      post: {
        operationId: `webhook_${type.replace(/[._]/g, "_")}`,
        summary: `${type}: a thin trigger; fetch the current state by query`,
        parameters: headers,
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: { "200": { description: "Any 2xx within 5 s: delivered. 3xx and 4xx: permanent failure. 5xx or timeout: retried." } },
      },
    };
  }
  return out;
}

/** The whole document; `serverUrl` is the base URL the server answers on. */
export function openApiDocument(routes: readonly ApiRoute[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const doc = OPERATIONS[operationKey(route)];
    if (!doc) continue;
    const path = toOpenApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, doc) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "kasa API",
      version: pkg.version,
      description:
        "Card-payment orchestration: cardless payments, payment links, installment options, refunds, acceptance status and thin signed webhooks. Amounts are integer kuruş; date-times are UTC ISO 8601.",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "payment-acceptance" },
      { name: "payment-links" },
      { name: "installment-options" },
      { name: "payments" },
      { name: "sandbox", description: "Only in sandbox mode; 404 elsewhere." },
    ],
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API key: kasa_sk_…" } },
      schemas: { Error: toSchema(r.errorEnvelope) },
    },
  };
}
