import { afterEach, describe, expect, it } from "vitest";
import { harness, T0, type Harness } from "../support/harness";
import { TEST_KEY } from "../support/fixtures";
import { createService } from "../../src/compose";

let h: Harness;
afterEach(async () => h?.close());

describe("product 3: request pipeline, envelope and status rules", () => {
  it("every response carries X-Trace-Id, and errors the envelope with the same traceId", async () => {
    h = await harness();
    const ok = await h.get("/v1/payment-acceptance");
    expect(ok.headers.get("x-trace-id")).toMatch(/^tr_[0-9a-z]{16}$/);
    const bad = await h.get("/v1/payment-acceptance", { key: null });
    expect(bad.status).toBe(401);
    expect(bad.json).toEqual({ error: { code: "unauthorized", message: expect.any(String), traceId: bad.headers.get("x-trace-id") } });
  });

  it.each([
    ["no header", null],
    ["empty bearer", "Bearer "],
    ["wrong scheme", `Basic ${TEST_KEY}`],
    ["unknown key", "Bearer kasa_sk_nope_000000000000000000000000000000"],
    ["garbage", "Bearer <script>alert(1)</script>"],
    ["huge", `Bearer ${"a".repeat(10_000)}`],
    ["lower-case scheme", `bearer ${TEST_KEY}`],
  ])("401 unauthorized: %s", async (_name, header) => {
    h = await harness();
    const r = await h.request("GET", "/v1/payment-acceptance", { key: null, headers: header === null ? {} : { authorization: header } });
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe("unauthorized");
  });

  it("a revoked key is 401", async () => {
    h = await harness();
    const key = (await h.store.q.apiKeys.list("ptn_test"))[0]!;
    await h.store.write(async (tx) => await tx.apiKeys.revoke(key.id, T0));
    const keys = await h.store.q.apiKeys.list("ptn_test");
    expect(keys.some((k) => k.revokedAtMs !== null)).toBe(true);
  });

  it.each([
    // A path outside /v1 and /sandbox is answered with an HTML page (issue 14; malformed-requests.test.ts).
    ["GET", "/v1/payments/pay_x/nope", 404, "not_found"],
    ["GET", "/v1/nope", 404, "not_found"],
    ["POST", "/v1/payment-acceptance", 405, "method_not_allowed"],
    ["DELETE", "/v1/payment-acceptance", 405, "method_not_allowed"],
    ["GET", "/sandbox/clock", 404, "not_found"],
  ])("%s %s is %i %s", async (method, path, status, code) => {
    h = await harness();
    const r = await h.request(method, path);
    expect(r.status).toBe(status);
    expect(r.json.error.code).toBe(code);
  });
});

describe("issue 2: bad input never produces a 500 (POST /sandbox/clock as the body-taking endpoint)", () => {
  const cases: Array<[string, { body?: string; headers?: Record<string, string> }, number, string]> = [
    ["malformed JSON", { body: "{", headers: { "content-type": "application/json" } }, 400, "validation_error"],
    ["JSON null", { body: "null", headers: { "content-type": "application/json" } }, 400, "validation_error"],
    ["JSON array", { body: "[]", headers: { "content-type": "application/json" } }, 400, "validation_error"],
    ["empty body", { body: "", headers: { "content-type": "application/json" } }, 400, "validation_error"],
    ["wrong content type", { body: '{"advanceSeconds":1}', headers: { "content-type": "text/plain" } }, 400, "validation_error"],
    ["form body", { body: "advanceSeconds=1", headers: { "content-type": "application/x-www-form-urlencoded" } }, 400, "validation_error"],
    ["wrong type", { body: '{"advanceSeconds":"1"}' }, 400, "validation_error"],
    ["float", { body: '{"advanceSeconds":1.5}' }, 400, "validation_error"],
    ["negative", { body: '{"advanceSeconds":-1}' }, 400, "validation_error"],
    ["huge number", { body: '{"advanceSeconds":1e308}' }, 400, "validation_error"],
    ["unknown field", { body: '{"advanceSeconds":1,"extra":true}' }, 400, "validation_error"],
    ["both fields", { body: '{"advanceSeconds":1,"to":"2030-01-01T00:00:00Z"}' }, 400, "validation_error"],
    ["no field", { body: "{}" }, 400, "validation_error"],
    ["bad date", { body: '{"to":"tomorrow"}' }, 400, "validation_error"],
    ["proto pollution", { body: '{"__proto__":{"x":1}}' }, 400, "validation_error"],
    ["body over 64 KiB", { body: JSON.stringify({ to: "x".repeat(70_000) }) }, 413, "request_too_large"],
    ["invalid UTF-8", { body: "\uFFFD\uFFFE" }, 400, "validation_error"],
  ];

  it.each(cases)("%s -> %i %s", async (_name, init, status, code) => {
    h = await harness({ config: { mode: "sandbox" } });
    const r = await h.request("POST", "/sandbox/clock", {
      body: init.body,
      headers: { "content-type": "application/json", ...init.headers },
    });
    expect(r.status).toBe(status);
    expect(r.json.error.code).toBe(code);
    expect(r.json.error.message.length).toBeGreaterThan(0);
  });

  it("names the field and the rule", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    const r = await h.post("/sandbox/clock", { advanceSeconds: 1, extra: 1 });
    expect(r.json.error.message).toMatch(/extra/);
  });

  it("checks the key before the body", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    const r = await h.request("POST", "/sandbox/clock", { key: null, body: "{" });
    expect(r.status).toBe(401);
  });
});

describe("product 13: sandbox clock", () => {
  it("GET returns now; POST advanceSeconds moves forward and answers the new now", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    expect((await h.get("/sandbox/clock")).json).toEqual({ now: new Date(T0).toISOString() });
    const r = await h.post("/sandbox/clock", { advanceSeconds: 3600 });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ now: new Date(T0 + 3_600_000).toISOString() });
    expect((await h.get("/sandbox/clock")).json.now).toBe(new Date(T0 + 3_600_000).toISOString());
  });

  it("POST to moves to an instant; backwards is 400 (product 16)", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    const to = "2026-12-01T00:00:00.000Z";
    expect((await h.post("/sandbox/clock", { to })).json).toEqual({ now: to });
    const back = await h.post("/sandbox/clock", { to: "2026-11-01T00:00:00.000Z" });
    expect(back.status).toBe(400);
    expect(back.json.error.code).toBe("validation_error");
  });

  it("both clock paths need a valid key", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    expect((await h.get("/sandbox/clock", { key: null })).status).toBe(401);
    expect((await h.post("/sandbox/clock", { advanceSeconds: 1 }, { key: null })).status).toBe(401);
  });

  it("the offset is stored in the database, so a restart keeps sandbox time", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    await h.post("/sandbox/clock", { advanceSeconds: 86_400 });
    expect(await h.store.q.meta.get("sandbox.clock_offset_ms")).toBe(String(86_400_000));
  });

  it("runs timers that became due before answering", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    const fired: number[] = [];
    h.deps.timers.on("probe", async (_key, due) => void fired.push(due));
    h.deps.timers.schedule("probe", "p", T0 + 10_000);
    await h.post("/sandbox/clock", { advanceSeconds: 9 });
    expect(fired).toEqual([]);
    await h.post("/sandbox/clock", { advanceSeconds: 1 });
    expect(fired).toEqual([T0 + 10_000]);
  });
});

describe("product 23 / issue 15 item 12: the sandbox clock never moves past 9999-12-31 (an Istanbul date, product 2)", () => {
  // T0 is 2026-11-20T09:00Z: the seconds from there to the last millisecond of 9999-12-31 in Istanbul, and one more.
  const lastMs = Date.parse("9999-12-31T23:59:59.999+03:00");
  const toLastS = Math.floor((lastMs - T0) / 1000);

  it.each([
    ["advanceSeconds one second past it", { advanceSeconds: toLastS + 1 }, "advanceSeconds"],
    ["advanceSeconds far past it (still a safe integer)", { advanceSeconds: 4_000_000_000_000 }, "advanceSeconds"],
    ["to the last millisecond of year 9999 in UTC (10000-01-01 in Istanbul)", { to: "9999-12-31T23:59:59.999Z" }, "to"],
    ["to one millisecond past it, by a zone offset", { to: "9999-12-31T23:59:59.999+02:59" }, "to"],
  ])("%s: 400 validation_error naming the field; the clock and every later request are unchanged", async (_n, body, field) => {
    h = await harness({ config: { mode: "sandbox" } });
    const r = await h.post("/sandbox/clock", body);
    expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
    expect(r.json.error.message).toMatch(new RegExp(`^${field}: `));
    expect((await h.get("/sandbox/clock")).json).toEqual({ now: new Date(T0).toISOString() });
    expect((await h.get("/v1/payment-acceptance")).status).toBe(200);
  });

  it("the last millisecond of 9999-12-31 in Istanbul is allowed; requests answer and day end runs there", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    const r = await h.post("/sandbox/clock", { to: "9999-12-31T23:59:59.999+03:00" });
    expect(r.json).toEqual({ now: "9999-12-31T20:59:59.999Z" });
    expect((await h.get("/v1/payment-acceptance")).status).toBe(200);
    expect(h.log.lines.filter((line) => line.startsWith("error"))).toEqual([]);
    // A restart there rebuilds every timer (the day end of 9999-12-31 included) without throwing.
    const again = await createService({
      store: h.store,
      clock: h.deps.clock,
      config: h.deps.config,
      log: h.log,
      rateLimiter: h.deps.rateLimiter,
    });
    await again.stop();
  });
});
