import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sendDelivery, type FetchLike } from "../../../src/domain/webhooks/deliver";
import { buildEventBody } from "../../../src/domain/webhooks/events";
import { deliveryHeaders } from "../../../src/domain/webhooks/sign";
import { closedPort, startReceiver, type Receiver } from "./receiver";

const SECRET = "whsec_test";
const OCCURRED_AT_MS = Date.UTC(2025, 2, 1, 9, 30, 0, 456);
const body = buildEventBody({ id: "evt_abc", type: "payment.captured", occurredAtMs: OCCURRED_AT_MS, paymentCode: "P1" });
const headers = deliveryHeaders({ body, secret: SECRET, deliveryId: "evt_abc", occurredAtMs: OCCURRED_AT_MS });
// Short timeouts keep the timeout tests fast; the 5 s default is the same code path.
const SHORT_TIMEOUT_MS = 200;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ secret: SECRET });
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(() => {
  receiver.deliveries.length = 0;
});

describe("interface 6.3 delivery as received", () => {
  it("arrives as a signed POST with both identical header sets and the stored bytes", async () => {
    const result = await sendDelivery({ url: receiver.url, body, headers });
    expect(result).toMatchObject({ outcome: "delivered", status: 200, error: null });
    expect(receiver.deliveries).toHaveLength(1);
    const [got] = receiver.deliveries;
    expect(got).toMatchObject({ method: "POST", path: "/hooks", rawBody: body, verified: true, legacyVerified: true });
    for (const suffix of ["signature", "timestamp", "delivery-id"]) {
      expect(got?.headers[`x-service-${suffix}`]).toBeTruthy();
      expect(got?.headers[`x-legacy-${suffix}`]).toBe(got?.headers[`x-service-${suffix}`]);
    }
    expect(got?.headers["x-service-delivery-id"]).toBe("evt_abc");
    expect(got?.headers["x-service-timestamp"]).toBe(String(Math.floor(OCCURRED_AT_MS / 1000)));
    expect(got?.headers["content-type"]).toBe("application/json");
    expect(got?.headers["user-agent"]).toBe("kasa-webhooks/1");
  });

  it("a body signed with another secret is answered 400 by the receiver: permanent", async () => {
    const wrong = deliveryHeaders({ body, secret: "other", deliveryId: "evt_abc", occurredAtMs: OCCURRED_AT_MS });
    const result = await sendDelivery({ url: receiver.url, body, headers: wrong });
    expect(result).toMatchObject({ outcome: "permanent", status: 400 });
    expect(receiver.deliveries[0]?.verified).toBe(false);
  });
});

describe("interface 6.4 and product 11 outcomes", () => {
  it.each([
    [200, "delivered"],
    [202, "delivered"],
    [204, "delivered"],
    [301, "permanent"],
    [302, "permanent"],
    [400, "permanent"],
    [404, "permanent"],
    [408, "permanent"],
    [429, "permanent"],
    [500, "retry"],
    [502, "retry"],
    [503, "retry"],
  ] as const)("HTTP %i -> %s", async (status, outcome) => {
    const location = status < 400 && status >= 300 ? { location: `${receiver.url}/elsewhere` } : undefined;
    receiver.script({ status, headers: location, body: status === 204 ? "" : "x" });
    const result = await sendDelivery({ url: receiver.url, body, headers });
    expect(result).toMatchObject({ outcome, status });
    expect(result.error === null).toBe(outcome === "delivered");
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    // A redirect is not followed: the receiver saw exactly one request.
    expect(receiver.deliveries).toHaveLength(1);
  });

  it("no response head within the timeout -> retry, returned at the deadline", async () => {
    receiver.script({ status: 200, delayMs: 500 });
    const result = await sendDelivery({ url: receiver.url, body, headers, timeoutMs: SHORT_TIMEOUT_MS });
    expect(result).toMatchObject({ outcome: "retry", status: null, error: `timeout after ${SHORT_TIMEOUT_MS} ms` });
    expect(result.latencyMs).toBeGreaterThanOrEqual(SHORT_TIMEOUT_MS - 5);
    expect(result.latencyMs).toBeLessThan(450);
  });

  it("a 2xx head whose body does not finish within the timeout -> retry (the budget includes the body)", async () => {
    receiver.script({ status: 200, bodyDelayMs: 500 });
    const result = await sendDelivery({ url: receiver.url, body, headers, timeoutMs: SHORT_TIMEOUT_MS });
    expect(result).toMatchObject({ outcome: "retry", status: 200, error: `timeout after ${SHORT_TIMEOUT_MS} ms` });
    expect(result.latencyMs).toBeLessThan(450);
  });

  it("a slow 4xx body does not matter: the status is final", async () => {
    receiver.script({ status: 404, bodyDelayMs: 500 });
    const result = await sendDelivery({ url: receiver.url, body, headers, timeoutMs: SHORT_TIMEOUT_MS });
    expect(result).toMatchObject({ outcome: "permanent", status: 404 });
  });

  it("connection refused (closed port) -> retry", async () => {
    const port = await closedPort();
    const result = await sendDelivery({ url: `http://127.0.0.1:${port}/hooks`, body, headers, timeoutMs: 2_000 });
    expect(result).toMatchObject({ outcome: "retry", status: null });
    expect(result.error).toMatch(/^connection error: /);
  });
});

describe("product 11 delivery edge cases (fake fetch)", () => {
  it("sends POST with redirect manual and the given bytes", async () => {
    const seen: RequestInit[] = [];
    const fetchImpl: FetchLike = async (_url, init) => {
      seen.push(init);
      return new Response("ok", { status: 200 });
    };
    await sendDelivery({ url: "https://hooks.example.com/x", body, headers, fetchImpl });
    expect(seen[0]).toMatchObject({ method: "POST", redirect: "manual", body, headers });
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it("a fetch that ignores the abort signal still cannot outlive the timeout", async () => {
    const fetchImpl: FetchLike = () => new Promise<Response>(() => {});
    const result = await sendDelivery({ url: "https://hooks.example.com/x", body, headers, timeoutMs: 50, fetchImpl });
    expect(result).toMatchObject({ outcome: "retry", status: null, error: "timeout after 50 ms" });
  });

  it("a fetch that throws synchronously -> retry, never a throw", async () => {
    const fetchImpl: FetchLike = () => {
      throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } });
    };
    const result = await sendDelivery({ url: "https://hooks.example.com/x", body, headers, fetchImpl });
    expect(result).toMatchObject({ outcome: "retry", status: null, error: "connection error: ECONNRESET" });
  });

  it("an endless 2xx body is read only up to a bound, then cancelled", async () => {
    let pulledBytes = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulledBytes += 1024;
        controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        cancelled = true;
      },
    });
    const fetchImpl: FetchLike = async () => new Response(stream, { status: 200 });
    const result = await sendDelivery({ url: "https://hooks.example.com/x", body, headers, fetchImpl });
    expect(result).toMatchObject({ outcome: "delivered", status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelled).toBe(true);
    expect(pulledBytes).toBeLessThan(64 * 1024);
  });

  it("an opaque redirect (status 0) is permanent", async () => {
    const fetchImpl: FetchLike = async () => ({ type: "opaqueredirect", status: 0, body: null }) as Response;
    const result = await sendDelivery({ url: "https://hooks.example.com/x", body, headers, fetchImpl });
    expect(result).toMatchObject({ outcome: "permanent", status: null, error: "redirect not followed" });
  });

  it.each(["not a url", "ftp://hooks.example.com/x", "file:///etc/passwd"])("%s is permanent without any request", async (url) => {
    let called = false;
    const fetchImpl: FetchLike = async () => {
      called = true;
      return new Response("ok");
    };
    const result = await sendDelivery({ url, body, headers, fetchImpl });
    expect(result).toMatchObject({ outcome: "permanent", status: null });
    expect(called).toBe(false);
  });
});
