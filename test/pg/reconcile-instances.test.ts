import { afterEach, describe, expect, inject, it } from "vitest";
import type { BankModule } from "../../src/bank/module";
import { simBankModule } from "../../src/bank/sim/index";
import { ManualClock } from "../../src/clock";
import { createDeps } from "../../src/compose";
import { createRateLimiter } from "../../src/domain/rate-limits/limiter";
import { reconcileConnection } from "../../src/domain/reconciliation/run";
import { reconcile } from "../../src/domain/reconciliation/service";
import { memoryLog } from "../../src/log";
import { openPostgresStore } from "../../src/store/postgres/pg-store";
import { connectionRow } from "../support/catalog-rows";
import { freshDatabase } from "../support/pg-cluster";

// Reconciliation (docs/reconciliation.md): two runs of one connection never overlap, across PostgreSQL instances too. Two
// stores on one database stand for two kasa instances (each with its own in-process queue); the
// bank's answer is slow, so overlapping runs would be seen asking at once.

const T0 = Date.parse("2026-11-20T09:00:00.000Z");
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function twoInstances() {
  const db = await freshDatabase(inject("pgUrl"));
  closers.push(() => db.drop());
  const seen = { inFlight: 0, most: 0, lists: 0 };
  const slowBank: BankModule = {
    ...simBankModule,
    reconcile: () => ({
      order: async () => ({ status: "unknown", amount: null, reference: null }),
      refund: async () => ({ status: "unknown", amount: null, reference: null }),
      day: async () => {
        seen.lists++;
        seen.most = Math.max(seen.most, ++seen.inFlight);
        await new Promise((r) => setTimeout(r, 300));
        seen.inFlight--;
        return [];
      },
    }),
  };
  const instance = async () => {
    const store = await openPostgresStore(db.url);
    closers.push(() => store.close());
    return await createDeps({
      store,
      clock: new ManualClock(T0),
      config: { mode: "serve", baseUrl: "http://kasa.test", trustProxy: false, allowPrivateWebhooks: false },
      log: memoryLog(),
      rateLimiter: createRateLimiter({ limits: "off" }),
      banks: [slowBank],
    });
  };
  const a = await instance();
  const b = await instance();
  await a.store.write(async (tx) => {
    await tx.catalog.upsertPsp({ id: "psp-1", active: true });
    await tx.catalog.upsertConnection(connectionRow("vpos-1"));
  });
  return { a, b, seen };
}

describe("product 26: two instances on one PostgreSQL database", () => {
  it("their runs of one connection never overlap: the second waits for the first's lease", async () => {
    const { a, b, seen } = await twoInstances();
    const [first, second] = await Promise.all([
      reconcileConnection(a, "vpos-1", "2026-11-19"),
      reconcileConnection(b, "vpos-1", "2026-11-19"),
    ]);
    expect(seen.most).toBe(1);
    const current = await a.store.q.reconcile.runs("vpos-1", 10);
    expect(current).toHaveLength(1);
    expect([first.run.id, second.run.id]).toContain(current[0]!.id);
  });

  it("both instances' daily runs of one day: the bank is asked once; the instance that waited answers the other's run", async () => {
    const { a, b, seen } = await twoInstances();
    const [first, second] = await Promise.all([reconcile(a, ["vpos-1"], "2026-11-19", T0), reconcile(b, ["vpos-1"], "2026-11-19", T0)]);
    expect(seen.lists).toBe(1);
    expect(first[0]!.run.id).toBe(second[0]!.run.id);
  });
});
