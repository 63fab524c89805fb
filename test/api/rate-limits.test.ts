import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runServer } from "../../cli/server";
import { MINUTE_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { OTHER_KEY, TEST_KEY_2 } from "../support/fixtures";

let h: Harness;
afterEach(async () => h?.close());

const ACCEPTANCE = "/v1/payment-acceptance";
const burst = async (n: number, init: Parameters<Harness["get"]>[1] = {}) => {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await h.get(ACCEPTANCE, init)).status);
  return statuses;
};

describe("interface 8 / product 12: rate budgets through the pipeline", () => {
  it("gate.ip: 240 per minute per source IP before the key is looked up; the 241st is 429 even with a bad key", async () => {
    h = await harness({ limits: { "reads.key": 10_000 } });
    const statuses = await burst(240, { ip: "203.0.113.1" });
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await h.get(ACCEPTANCE, { ip: "203.0.113.1", key: "kasa_sk_wrong_0000000000000000000000" });
    expect(refused.status).toBe(429);
    expect((await h.get(ACCEPTANCE, { ip: "203.0.113.2" })).status).toBe(200);
  });

  it("gate.platform: 600 per minute across all IPs", async () => {
    h = await harness({ limits: { "reads.key": 10_000, "gate.ip": 10_000 } });
    for (let i = 0; i < 600; i++) expect((await h.get(ACCEPTANCE, { ip: `198.51.100.${i % 200}` })).status).toBe(200);
    expect((await h.get(ACCEPTANCE, { ip: "192.0.2.77" })).status).toBe(429);
  });

  it("reads.key (product 12): 300 per minute per key; Retry-After 60; passes again after the window", async () => {
    h = await harness({ limits: { "gate.ip": 10_000, "gate.platform": 10_000 } });
    expect((await burst(300)).every((s) => s === 200)).toBe(true);
    const r = await h.get(ACCEPTANCE);
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe("rate_limited");
    expect(r.headers.get("retry-after")).toBe("60");
    h.clock.advance(MINUTE_MS);
    expect((await h.get(ACCEPTANCE)).status).toBe(200);
  });

  it("keys of one account have independent key budgets; changing IP does not reset a key's budget", async () => {
    h = await harness({ limits: { "gate.ip": 10_000, "gate.platform": 10_000, "reads.key": 3 } });
    expect(await burst(3, { ip: "203.0.113.5" })).toEqual([200, 200, 200]);
    expect((await h.get(ACCEPTANCE, { ip: "203.0.113.6" })).status).toBe(429);
    expect((await h.get(ACCEPTANCE, { key: TEST_KEY_2 })).status).toBe(200);
    expect((await h.get(ACCEPTANCE, { key: OTHER_KEY })).status).toBe(200);
  });

  it("a refused request consumes nothing: the window is rolling, not fixed", async () => {
    h = await harness({ limits: { "gate.ip": 10_000, "gate.platform": 10_000, "reads.key": 2 } });
    await burst(2);
    h.clock.advance(30_000);
    expect((await burst(5)).filter((s) => s === 429)).toHaveLength(5);
    h.clock.advance(30_000); // the first two leave the window exactly now
    expect(await burst(3)).toEqual([200, 200, 429]);
  });

  it("401 comes before the key budgets: a bad key spends no key budget", async () => {
    h = await harness({ limits: { "gate.ip": 10_000, "gate.platform": 10_000, "reads.key": 1 } });
    await h.get(ACCEPTANCE, { key: "kasa_sk_bad_00000000000000000000000000" });
    expect((await h.get(ACCEPTANCE)).status).toBe(200);
  });
});

describe("product 12: deployment limits (kasa serve --limits)", () => {
  const base = { db: ":memory:", port: 0, host: "127.0.0.1", trustProxy: false, allowPrivateWebhooks: false } as const;

  it("an unknown budget name is refused at start, naming it and the valid names", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "kasa-limits-")), "limits.json");
    writeFileSync(file, JSON.stringify({ "gate.ipp": 5 }));
    await expect(runServer({ ...base, mode: "serve", limits: file })).rejects.toThrow(/gate\.ipp[\s\S]*gate\.platform/);
  });

  it("a non-positive number is refused naming the key", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "kasa-limits-")), "limits.json");
    writeFileSync(file, JSON.stringify({ "reads.key": -1 }));
    await expect(runServer({ ...base, mode: "serve", limits: file })).rejects.toThrow(/reads\.key/);
  });

  it("--limits off is refused outside sandbox mode", async () => {
    await expect(runServer({ ...base, mode: "serve", limits: "off" })).rejects.toThrow(/sandbox/);
  });
});
