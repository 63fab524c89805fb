import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS, MINUTE_MS } from "../../src/limits";
import { TEST_KEY_2, TEST_SEED } from "../support/fixtures";
import { harness, type Harness } from "../support/harness";
import { createPayment, paymentCount } from "./payments-flow";

// interface 8 / product 12: the payment-creation budgets at their default numbers, each walked
// N passes -> N+1 refused -> passes again after the window, on the manual clock.

let h: Harness;
afterEach(async () => h?.close());

const GATES_UP = { "gate.ip": 1_000_000, "gate.platform": 1_000_000 } as const;
let ipSeq = 0;
const freshIp = () => `203.0.${Math.floor(++ipSeq / 250) % 250}.${(ipSeq % 250) + 1}`;

async function creates(n: number, opts: { ip?: () => string; key?: string } = {}): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++)
    out.push((await h.post("/v1/payments", body(), { ip: (opts.ip ?? freshIp)(), ...(opts.key ? { key: opts.key } : {}) })).status);
  return out;
}
let tx = 0;
const body = () => ({ amount: 1000, partnerTxCode: `rl-${++tx}`, terminalId: "T-1", returnUrl: "https://shop.example/r" });
const allCreated = (s: number[]) => s.every((x) => x === 201);

describe("interface 8: POST /v1/payments budgets", () => {
  it("payments.create.key: 60 per minute per key (from many IPs); the 61st is 429 with Retry-After 60; a minute later it passes", async () => {
    h = await harness({ limits: { ...GATES_UP } });
    expect(allCreated(await creates(60))).toBe(true);
    const refused = await h.post("/v1/payments", body(), { ip: freshIp() });
    expect([refused.status, refused.json.error.code, refused.headers.get("retry-after")]).toEqual([429, "rate_limited", "60"]);
    expect((await h.post("/v1/payments", body(), { ip: freshIp(), key: TEST_KEY_2 })).status).toBe(201); // keys are independent
    h.clock.advance(MINUTE_MS);
    expect(allCreated(await creates(1))).toBe(true);
  });

  it("payments.create.ip: 30 per minute per source IP, shared by the keys of the account", async () => {
    h = await harness({ limits: { ...GATES_UP } });
    const ip = () => "198.51.100.7";
    expect(allCreated([...(await creates(15, { ip })), ...(await creates(15, { ip, key: TEST_KEY_2 }))])).toBe(true);
    expect(await creates(1, { ip })).toEqual([429]);
    expect(await creates(1, { ip, key: TEST_KEY_2 })).toEqual([429]);
    h.clock.advance(MINUTE_MS);
    expect(await creates(1, { ip })).toEqual([201]);
  });

  it("payments.create.ip.hourly: 1800 per hour per source IP; the 1801st is 429; an hour later it passes", async () => {
    h = await harness({ limits: { ...GATES_UP, "payments.create.key": 1_000_000, "payments.create.ip": 1_000_000 } });
    const ip = () => "192.0.2.55";
    expect(allCreated(await creates(1800, { ip }))).toBe(true);
    expect(await creates(1, { ip })).toEqual([429]);
    h.clock.advance(HOUR_MS);
    expect(await creates(1, { ip })).toEqual([201]);
  }, 60_000);

  it("rateLimitMultiplier raises the key and IP budgets together (product 12)", async () => {
    const seed = { ...TEST_SEED, partners: TEST_SEED.partners!.map((p) => (p.id === "ptn_test" ? { ...p, rateLimitMultiplier: 2 } : p)) };
    h = await harness({ seed, limits: { ...GATES_UP } });
    const ip = () => "198.51.100.9";
    expect(allCreated(await creates(60, { ip }))).toBe(true); // 2 x 30 per IP
    expect(await creates(1, { ip })).toEqual([429]);
    expect(allCreated(await creates(60))).toBe(true); // the key: 2 x 60 = 120 in all
    expect(await creates(1)).toEqual([429]);
  });

  it("every create attempt consumes the budgets, idempotent replays included", async () => {
    h = await harness({ limits: { ...GATES_UP, "payments.create.key": 3 } });
    const first = await createPayment(h, { partnerTxCode: "same" });
    expect(first.status).toBe(201);
    expect((await createPayment(h, { partnerTxCode: "same" })).status).toBe(200);
    expect((await createPayment(h, { partnerTxCode: "same" })).status).toBe(200);
    expect((await createPayment(h, { partnerTxCode: "same" })).status).toBe(429);
  });

  it("a refused create creates nothing and does not consume the partnerTxCode", async () => {
    h = await harness({ limits: { ...GATES_UP, "payments.create.key": 1 } });
    await createPayment(h);
    const before = await paymentCount(h);
    expect((await createPayment(h, { partnerTxCode: "refused-one" })).status).toBe(429);
    expect(await paymentCount(h)).toBe(before);
    h.clock.advance(MINUTE_MS);
    expect((await createPayment(h, { partnerTxCode: "refused-one" })).status).toBe(201);
  });

  it("reads do not consume the create budget and vice versa", async () => {
    h = await harness({ limits: { ...GATES_UP, "payments.create.key": 1, "reads.key": 2 } });
    const created = await createPayment(h);
    expect((await createPayment(h)).status).toBe(429);
    expect((await h.get(`/v1/payments/${created.json.paymentCode}`)).status).toBe(200);
    expect((await h.get(`/v1/payments/${created.json.paymentCode}`)).status).toBe(200);
    expect((await h.get(`/v1/payments/${created.json.paymentCode}`)).status).toBe(429);
  });
});

describe("interface 8: a refused link cancel cancels nothing", () => {
  it("DELETE over the shared links.write.key budget is 429 and the link stays pending", async () => {
    h = await harness({ limits: { ...GATES_UP, "links.write.key": 1 } });
    const link = await h.post("/v1/payment-links", { amount: 1000, terminalId: "T-1" });
    expect(link.status).toBe(201);
    const cancel = await h.del(`/v1/payment-links/${link.json.id}`);
    expect([cancel.status, cancel.headers.get("retry-after")]).toEqual([429, "60"]);
    expect((await h.get(`/v1/payment-links/${link.json.id}`)).json.status).toBe("pending");
  });
});
