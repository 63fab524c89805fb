import { afterEach, describe, expect, inject, it } from "vitest";
import { memoryLog } from "../../src/log";
import { instanceHeartbeat } from "../../src/domain/rate-limits/instances";
import { createRateLimiter, type RateLimiter } from "../../src/domain/rate-limits/limiter";
import { defaultLimits } from "../../src/domain/rate-limits/budgets";
import { openPostgresStore, type PgStore } from "../../src/store/postgres/pg-store";
import { freshDatabase } from "../support/pg-cluster";

// Product 22: rate limits across instances. Each instance registers a heartbeat row and admits
// its share of every budget; together they never admit more than the budget, and an instance
// that leaves gives its share back to the others at their next beat.

const opened: PgStore[] = [];
const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const drop of drops.splice(0)) await drop();
});

async function instance(url: string, id: string) {
  const store = await openPostgresStore(url);
  opened.push(store);
  const limiter = createRateLimiter({ limits: { ...defaultLimits(), "gate.ip": 10 } });
  const heartbeat = instanceHeartbeat(store, limiter, memoryLog(), id);
  return { limiter, heartbeat };
}

/** Sixty requests from one IP spread over the instances, at one instant: how many were admitted. */
const admitted = (limiters: RateLimiter[], nowMs: number) => {
  let n = 0;
  for (let i = 0; i < 60; i++) if (limiters[i % limiters.length]!.tryAcquire([{ budget: "gate.ip", key: "ip" }], nowMs)) n += 1;
  return n;
};

describe("product 22: rate-limit shares with instance heartbeats", () => {
  it("three instances on one database admit exactly the budget together; when one leaves the others take its share", async () => {
    const db = await freshDatabase(inject("pgUrl"));
    drops.push(db.drop);
    const [a, b, c] = [await instance(db.url, "ins_a"), await instance(db.url, "ins_b"), await instance(db.url, "ins_c")];
    for (const x of [a, b, c]) await x.heartbeat.beat();
    // The first beats saw 1, 2, 3 instances; a second round sees all three.
    for (const x of [a, b, c]) await x.heartbeat.beat();
    expect(admitted([a.limiter, b.limiter, c.limiter], 1_000)).toBe(10);
    await c.heartbeat.stop();
    for (const x of [a, b]) await x.heartbeat.beat();
    // A new window (one minute later): two shares of 5.
    expect(admitted([a.limiter, b.limiter], 1_000 + 61_000)).toBe(10);
    for (const x of [a, b]) await x.heartbeat.stop();
  });
});
