import { afterEach, describe, expect, it } from "vitest";
import { TEST_KEY } from "../support/fixtures";
import { harness, type Harness } from "../support/harness";

// Issue 14, product 23 (last rule): every answer the HTTP layer itself produces is kasa's own: the
// JSON envelope on /v1 and /sandbox, an HTML page with the code and trace id on pages, each with
// X-Trace-Id and the headers of its kind. Never h3's `{"status":400,"message":"Bad Request"}`.

let h: Harness;
afterEach(async () => h?.close());

const BAD_SEGMENTS = ["%ZZ", "%u0000", "%FF", "%C0%AF", "%E0%A4%A", "%", "ok%2"];

/** One path of every route family, with `{x}` where a malformed segment goes. */
const API_PATHS = [
  "/v1/payments/{x}",
  "/v1/payments/{x}/refunds",
  "/v1/payment-links/{x}",
  "/v1/refunds/{x}",
  "/v1/payment-acceptance{x}",
  "/v1/{x}",
  "/sandbox/clock{x}",
];
const PAGE_PATHS = ["/l/{x}", "/l/{x}/result", "/handoff{x}", "/handoff/callback/{x}", "/sim-bank/acs{x}", "/{x}"];

const send = (path: string, method = "GET") =>
  h.runtime.app.request(`http://kasa.test${path}`, { method, headers: { authorization: `Bearer ${TEST_KEY}` } });

async function expectEnvelope(res: Response, status: number, code: string) {
  const body = (await res.json()) as { error: { code: string; message: string; traceId: string } };
  expect([res.status, body.error.code]).toEqual([status, code]);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("x-trace-id")).toMatch(/^tr_/);
  expect(body.error.traceId).toBe(res.headers.get("x-trace-id"));
}

async function expectPage(res: Response, status: number, code: string) {
  const text = await res.text();
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const traceId = res.headers.get("x-trace-id");
  expect(traceId).toMatch(/^tr_/);
  expect(text).toContain(`<code>${code}</code>`);
  expect(text).toContain(`<code>${traceId}</code>`);
}

describe("issue 14 malformed paths answer kasa's own error (product 23)", () => {
  const api = API_PATHS.flatMap((p) => BAD_SEGMENTS.map((x) => [p.replace("{x}", x)]));
  const pages = PAGE_PATHS.flatMap((p) => BAD_SEGMENTS.map((x) => [p.replace("{x}", x)]));

  it.each(api)("GET %s: 400 validation_error in the envelope", async (path) => {
    h = await harness();
    await expectEnvelope(await send(path), 400, "validation_error");
  });

  it.each(pages)("GET %s: 400 HTML page with the code and trace id", async (path) => {
    h = await harness();
    await expectPage(await send(path), 400, "validation_error");
  });
});

describe("issue 14 unknown paths and methods by route family", () => {
  it.each([
    ["GET", "/v1/nothing-here", 404, "not_found"],
    ["PUT", "/v1/payments", 405, "method_not_allowed"],
    ["DELETE", "/sandbox/clock", 405, "method_not_allowed"],
  ])("%s %s: %i %s in the envelope", async (method, path, status, code) => {
    h = await harness({ config: { mode: "sandbox" } });
    await expectEnvelope(await send(path, method), status, code);
  });

  it.each([
    ["GET", "/handoff", 405, "method_not_allowed"],
    ["GET", "/l/some-token/pay", 405, "method_not_allowed"],
    ["GET", "/l/some-token/options", 405, "method_not_allowed"],
    ["GET", "/sim-bank/acs", 405, "method_not_allowed"],
    ["GET", "/l/some-token/nothing", 404, "not_found"],
    ["GET", "/nothing-here", 404, "not_found"],
  ])("%s %s: %i HTML page", async (method, path, status, code) => {
    h = await harness();
    await expectPage(await send(path, method), status, code);
  });
});

describe("issue 14 oversized request headers are refused by kasa itself", () => {
  const big = { "x-big": "a".repeat(20_000) };
  const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`x-h${i}`, "v"]));
  it.each([
    ["one 20 KB header", big],
    ["150 header fields", many],
  ])("%s: the envelope on /v1, a page on /l", async (_n, headers) => {
    h = await harness();
    const api = await h.runtime.app.request("http://kasa.test/v1/payments/pay_x", {
      headers: { ...headers, authorization: `Bearer ${TEST_KEY}` },
    });
    await expectEnvelope(api, 413, "request_too_large");
    await expectPage(await h.runtime.app.request("http://kasa.test/l/some-token", { headers }), 413, "request_too_large");
  });

  it("headers just under the limit pass through to the route", async () => {
    h = await harness();
    const res = await h.runtime.app.request("http://kasa.test/v1/payments/pay_x", {
      headers: { "x-big": "a".repeat(15_000), authorization: `Bearer ${TEST_KEY}` },
    });
    await expectEnvelope(res, 404, "payment_not_found");
  });
});
