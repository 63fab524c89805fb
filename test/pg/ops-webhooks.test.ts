import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryRow } from "../../src/store/rows";
import type { WebhooksOps } from "../../src/store/links-ops";
import { webhooksPg } from "../../src/store/postgres/webhooks-pg";
import { bothStores, type Both } from "./differential";
import { partnersPg, partnersSqlite } from "./links-world";

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

type NewDelivery = Pick<DeliveryRow, "id" | "partnerId" | "type" | "body" | "occurredAtMs">;

// d1 and d2 share an instant (the id breaks the tie); d4 is another partner's.
const DELIVERIES: NewDelivery[] = [
  { id: "d1", partnerId: "p1", type: "payment.captured", body: '{"n":1}', occurredAtMs: 1000 },
  { id: "d2", partnerId: "p1", type: "payment.failed", body: '{"n":2}', occurredAtMs: 1000 },
  { id: "d3", partnerId: "p1", type: "link.completed", body: '{"n":3}', occurredAtMs: 3000 },
  { id: "d4", partnerId: "p2", type: "refund.approved", body: '{"n":4}', occurredAtMs: 2000 },
];

async function run<T>(b: Both, steps: (ops: WebhooksOps) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  await b.sqlite(async (tx) => {
    await partnersSqlite(tx, ["p1", "p2"]);
    for (const d of DELIVERIES) await tx.webhooks.insert(d);
  });
  await b.pg(async (sql) => {
    await partnersPg(sql, ["p1", "p2"]);
    for (const d of DELIVERIES) await webhooksPg(sql).insert(d);
  });
  return { sqlite: await b.sqlite((tx) => steps(tx.webhooks)), pg: await b.pg((sql) => steps(webhooksPg(sql))) };
}

const attempt = (deliveryId: string, startedAtMs: number, outcome: "delivered" | "permanent" | "retry") => ({
  deliveryId,
  startedAtMs,
  httpStatus: outcome === "retry" ? null : 200,
  latencyMs: outcome === "retry" ? null : 42,
  outcome,
  error: outcome === "retry" ? "timeout" : null,
});

describe("issue 23: webhooks operations answer on PostgreSQL as on SQLite", () => {
  it("insert, get, list (every filter, order, limit)", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (w) => [
      await w.get("d1"),
      await w.get("missing"),
      await w.list({ partnerId: null, status: null, limit: 10 }),
      await w.list({ partnerId: "p1", status: null, limit: 2 }),
      await w.list({ partnerId: null, status: "pending", limit: 10 }),
      await w.list({ partnerId: "p2", status: "delivered", limit: 10 }),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual({
      ...DELIVERIES[0],
      status: "pending",
      attempts: 0,
      nextAttemptAtMs: 1000,
      firstAttemptAtMs: null,
      createdAtMs: 1000,
      updatedAtMs: 1000,
    });
    expect((sqlite[2] as { id: string }[]).map((r) => r.id)).toEqual(["d3", "d4", "d2", "d1"]);
  });

  it("a delivery's life: claim, attempts numbered across cycles, reschedule, settle, requeue, orphan, drop", async () => {
    both = await bothStores();
    const { sqlite, pg } = await run(both, async (w) => [
      await w.due(1500, 10),
      await w.waitingPage(0, "", 10),
      await w.waitingPage(1000, "d1", 2),
      await w.claim("d1", 999, 5000),
      await w.claim("d1", 1000, 5000),
      await w.claim("d1", 1000, 5001),
      await w.inFlightPage("", 10),
      await w.insertAttempt(attempt("d1", 5000, "retry")),
      await w.reschedule("d1", 9000, 5100),
      await w.reschedule("d1", 9500, 5200),
      await w.claim("d1", 9000, 9000),
      await w.insertAttempt(attempt("d1", 9000, "delivered")),
      await w.settle("d1", "delivered", 9100),
      await w.settle("d1", "failed", 9200),
      await w.requeue("d1", 10_000),
      await w.requeue("d2", 10_000),
      await w.get("d1"),
      await w.claim("d2", 1000, 11_000),
      await w.claimOrphan("d2", 10_999, 12_000),
      await w.claimOrphan("d2", 11_000, 12_000),
      await w.inFlightPage("d1", 10),
      await w.dropUnsent("d2", 1000, 13_000),
      await w.dropUnsent("d2", null, 13_000),
      await w.dropUnsent("d3", 3000, 13_000),
      await w.insertAttempt(attempt("d4", 14_000, "permanent")),
      await w.attempts("d1"),
      await w.attempts("d4"),
      await w.attempts("missing"),
      await w.list({ partnerId: null, status: null, limit: 10 }),
      await w.due(20_000, 10),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite.slice(3, 6)).toEqual([false, true, false]);
    expect(sqlite[11]).toBe(2);
    expect(sqlite[24]).toBe(1);
    expect(sqlite.slice(21, 24)).toEqual([false, true, true]);
  });
});
