import { Validator } from "@seriousme/openapi-schema-validator";
import createClient from "openapi-fetch";
import openapiTS from "openapi-typescript";
import { afterEach, describe, expect, it } from "vitest";
import { documentedRoutes } from "../../src/http/routes";
import { openApiDocument, operationKey } from "../../src/openapi/document";
import examples from "../../src/openapi/examples.json";
import { OPERATIONS } from "../../src/openapi/operations";
import { TEST_KEY } from "../support/fixtures";
import { harness, type Harness } from "../support/harness";
import { checkAgainstOpenApi } from "../support/openapi-check";
import { recordExamples } from "../support/openapi-examples";

// Issue 21, product 20: the OpenAPI 3.1 document, its routes, its reference page, its examples,
// the response check every API test runs through, and a client generated from it.

let h: Harness;
afterEach(async () => h?.close());

type Json = Record<string, any>;
const doc = openApiDocument(documentedRoutes(), "http://kasa.test") as Json;

describe("product 20: the document", () => {
  it("is valid OpenAPI 3.1 for an independent validator (@seriousme/openapi-schema-validator)", async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every route of the route table, and nothing else", () => {
    expect(documentedRoutes().map(operationKey).sort()).toEqual(Object.keys(OPERATIONS).sort());
  });

  it("names bearer security, X-Trace-Id on every answer, Retry-After on the 429 of rate-limited operations, and every webhook", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const create = doc.paths["/v1/payments"].post;
    for (const r of Object.values(create.responses as Json)) expect(r.headers["X-Trace-Id"]).toBeDefined();
    expect(create.responses["429"].headers["Retry-After"]).toBeDefined();
    expect(doc.paths["/v1/installment-options"].post.responses["429"].headers["Retry-After"]).toBeUndefined();
    expect(create.responses["422"]["x-error-codes"]).toEqual(
      expect.arrayContaining(["amount_limit_exceeded", "pos_daily_limit_exceeded", "installment_not_allowed"]),
    );
    expect(Object.keys(doc.webhooks)).toEqual(
      expect.arrayContaining(["payment.captured", "payout.paid_out", "payment_link.completed", "webhook.test"]),
    );
    expect(doc.paths["/v1/payments"].post.requestBody.content["application/json"].schema.properties.amount).toMatchObject({
      type: "integer",
    });
  });
});

describe("product 20: GET /openapi.json and GET /docs, no key, no third-party assets", () => {
  it("serves the document and a reference page of every operation", async () => {
    h = await harness();
    const json = await h.runtime.app.request("http://kasa.test/openapi.json");
    expect(json.status).toBe(200);
    expect(((await json.json()) as Json).openapi).toBe("3.1.0");
    const page = await h.runtime.app.request("http://kasa.test/docs");
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    for (const key of Object.keys(OPERATIONS)) expect(text).toContain(key.replace(/:([A-Za-z]+)/g, "{$1}"));
    expect(text).not.toMatch(/<script\b[^>]*\bsrc=|<link\b[^>]*stylesheet/i);
  });
});

describe("issue 21: the answers of the API tests are checked against the document", () => {
  it("a body that does not match its schema fails the test that received it", () => {
    const headers = new Headers({ "x-trace-id": "tr_x" });
    expect(() => checkAgainstOpenApi("GET", "/v1/payments/pay_x", 200, headers, { paymentCode: "pay_x" })).toThrow(/body does not match/);
    expect(() =>
      checkAgainstOpenApi("GET", "/v1/payments/pay_x", 404, headers, {
        error: { code: "refund_not_found", message: "m", traceId: "tr_x" },
      }),
    ).toThrow(/not documented/);
    expect(() => checkAgainstOpenApi("GET", "/v1/payments/pay_x", 418, headers, {})).toThrow(/status not documented/);
    expect(() =>
      checkAgainstOpenApi("GET", "/v1/payments/pay_x", 404, new Headers(), {
        error: { code: "payment_not_found", message: "m", traceId: "t" },
      }),
    ).toThrow(/X-Trace-Id/);
  });
});

describe("issue 21: examples are real answers", () => {
  it("every operation has an example recorded from a real answer, and each matches its schema", () => {
    const operationIds = Object.values(OPERATIONS)
      .map((o) => o.operationId)
      .sort();
    expect(Object.keys(examples).sort()).toEqual(operationIds);
    const byId = new Map(documentedRoutes().map((r) => [OPERATIONS[operationKey(r)]!.operationId, r]));
    for (const [id, ex] of Object.entries(examples as Record<string, { status: number; body: unknown }>)) {
      const route = byId.get(id)!;
      const path = route.path.replace(/:([A-Za-z]+)/g, "x");
      expect(() => checkAgainstOpenApi(route.method, path, ex.status, new Headers({ "x-trace-id": "tr_x" }), ex.body), id).not.toThrow();
    }
  });

  it("recording them again gives the same operations and statuses (npm run openapi:examples refreshes the file)", async () => {
    const fresh = await recordExamples();
    const shape = (e: Record<string, { status: number }>) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v.status]));
    expect(shape(fresh)).toEqual(shape(examples as never));
  });
});

describe("issue 21: a client generated from the document (openapi-typescript types, openapi-fetch client)", () => {
  it("creates a payment, reads it, creates and lists links", async () => {
    const types = await openapiTS(doc as never);
    expect(types).toContain('"/v1/payments/{paymentCode}"');
    expect(types).toContain("createPayment");
    h = await harness();
    const client = createClient<any>({
      baseUrl: "http://kasa.test",
      headers: { authorization: `Bearer ${TEST_KEY}` },
      fetch: (request: Request) => Promise.resolve(h.runtime.app.request(request)),
    });
    const created = await client.POST("/v1/payments", {
      body: { amount: 10_000, partnerTxCode: "gen-1", terminalId: "T-1", returnUrl: "https://shop.example/r" },
    });
    expect(created.response.status).toBe(201);
    const read = await client.GET("/v1/payments/{paymentCode}", { params: { path: { paymentCode: created.data.paymentCode } } });
    expect(read.data).toMatchObject({ paymentCode: created.data.paymentCode, status: "initiated" });
    const link = await client.POST("/v1/payment-links", { body: { amount: 50_000, terminalId: "T-1" } });
    expect(link.response.status).toBe(201);
    const list = await client.GET("/v1/payment-links", { params: { query: { page: 0, size: 20 } } });
    expect(list.data.items.map((l: { id: string }) => l.id)).toEqual([link.data.id]);
  });
});
