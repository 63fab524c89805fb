import { afterEach, describe, expect, it } from "vitest";
import { harness, type Harness, type Reply } from "../support/harness";
import { OTHER_KEY, TEST_KEY, TEST_KEY_2 } from "../support/fixtures";
import { MINUTE_MS } from "../../src/limits";
import { createLink, linkCount, newLink } from "../unit/payment-links/fixtures";

// interface 8 / product 12: links.write.key 30, links.read.key 120, links.ip 120 per minute.

let h: Harness;
afterEach(async () => h?.close());

const IP_A = "198.51.100.1";
const IP_B = "198.51.100.2";
const IP_C = "198.51.100.3";

function expectLimited(r: Reply) {
  expect(r.status).toBe(429);
  expect(r.json.error.code).toBe("rate_limited");
  expect(r.headers.get("retry-after")).toBe("60");
}

async function times(n: number, fn: (i: number) => Promise<Reply>) {
  for (let i = 0; i < n; i++) {
    const r = await fn(i);
    expect(r.status, `request ${i + 1}: ${r.text}`).toBeLessThan(300);
  }
}

describe("interface 8 create and cancel: a shared budget of 30 per minute per API key", () => {
  it("20 creates + 10 cancels fill it; the next create or cancel is 429 with Retry-After 60 and changes nothing", async () => {
    h = await harness({ limits: "default" });
    const ids: string[] = [];
    await times(20, async () => {
      const r = await createLink(h, {}, { ip: IP_A });
      ids.push(r.json.id);
      return r;
    });
    await times(10, (i) => h.del(`/v1/payment-links/${ids[i]}`, { ip: IP_A }));
    expectLimited(await createLink(h, {}, { ip: IP_A }));
    expectLimited(await h.del(`/v1/payment-links/${ids[15]}`, { ip: IP_B })); // changing IP does not reset a key budget
    // 429 comes before the body is even read (product 3 check order).
    expectLimited(await h.post("/v1/payment-links", { nonsense: true }, { ip: IP_A }));
    expect(await linkCount(h)).toBe(20);
    expect((await h.get(`/v1/payment-links/${ids[15]}`, { ip: IP_C })).json.status).toBe("pending");

    await h.advance(MINUTE_MS);
    const next = await createLink(h, {}, { ip: IP_A });
    expect(next.status).toBe(201);
    // The refused creates consumed no partnerReference.
    expect(next.json.partnerReference).toBe(21);
  });

  it("another key of the same account has its own budget (interface 5)", async () => {
    h = await harness({ limits: "default" });
    await times(30, () => createLink(h, {}, { ip: IP_A }));
    expectLimited(await createLink(h, {}, { ip: IP_A }));
    expect((await createLink(h, {}, { ip: IP_B, key: TEST_KEY_2 })).status).toBe(201);
  });

  it("reads do not consume it", async () => {
    h = await harness({ limits: "default" });
    const link = await newLink(h);
    await times(100, (i) => (i % 2 ? h.get("/v1/payment-links", { ip: IP_B }) : h.get(`/v1/payment-links/${link.id}`, { ip: IP_B })));
    await times(29, () => createLink(h, {}, { ip: IP_A }));
    expectLimited(await createLink(h, {}, { ip: IP_A }));
  });
});

describe("interface 8 list and get: a shared budget of 120 per minute per API key", () => {
  it("60 lists + 60 gets fill it; the 121st read is 429 with Retry-After 60; writes still pass", async () => {
    h = await harness({ limits: "default" });
    const link = await newLink(h);
    await times(60, () => h.get("/v1/payment-links", { ip: IP_A }));
    await times(60, () => h.get(`/v1/payment-links/${link.id}`, { ip: IP_B }));
    expectLimited(await h.get("/v1/payment-links", { ip: IP_C }));
    expectLimited(await h.get(`/v1/payment-links/${link.id}`, { ip: IP_C }));
    // Write usage and read usage are separate budgets.
    expect((await createLink(h, {}, { ip: IP_C })).status).toBe(201);
    expect((await h.del(`/v1/payment-links/${link.id}`, { ip: IP_C })).status).toBe(200);
    await h.advance(MINUTE_MS);
    expect((await h.get("/v1/payment-links", { ip: IP_C })).status).toBe(200);
  });
});

describe("interface 8 the four payment-link endpoints: 120 per minute per source IP", () => {
  it("is shared by every key and account from that IP, across all four endpoints; another IP is unaffected", async () => {
    h = await harness({ limits: "default" });
    const ids: string[] = [];
    await times(20, async () => {
      const r = await createLink(h, {}, { ip: IP_A, key: TEST_KEY });
      ids.push(r.json.id);
      return r;
    });
    await times(10, (i) => h.del(`/v1/payment-links/${ids[i]}`, { ip: IP_A, key: TEST_KEY }));
    await times(30, () => createLink(h, {}, { ip: IP_A, key: TEST_KEY_2 }));
    await times(30, () => h.get("/v1/payment-links", { ip: IP_A, key: TEST_KEY }));
    await times(29, () => h.get(`/v1/payment-links/${ids[19]}`, { ip: IP_A, key: TEST_KEY }));
    await times(1, () => h.get("/v1/payment-links", { ip: IP_A, key: OTHER_KEY }));
    // 120 from IP_A: each of these keys still has key budget left, so the IP budget is what refuses.
    expectLimited(await h.get("/v1/payment-links", { ip: IP_A, key: TEST_KEY_2 }));
    expectLimited(await createLink(h, { terminalId: "T-OTHER" }, { ip: IP_A, key: OTHER_KEY }));
    expect((await h.get("/v1/payment-links", { ip: IP_B, key: TEST_KEY_2 })).status).toBe(200);
    expect((await createLink(h, { terminalId: "T-OTHER" }, { ip: IP_B, key: OTHER_KEY })).status).toBe(201);
  });

  it("does not draw on other endpoints' budgets: payment-acceptance reads still pass", async () => {
    h = await harness({ limits: "default" });
    await times(120, () => h.get("/v1/payment-links", { ip: IP_A, key: TEST_KEY }));
    expectLimited(await h.get("/v1/payment-links", { ip: IP_A, key: TEST_KEY_2 }));
    expect((await h.get("/v1/payment-acceptance", { ip: IP_A })).status).toBe(200);
  });
});
