import { afterEach, describe, expect, it } from "vitest";
import type { WebhookTailOps, WebhooksOps } from "../../src/store/links-ops";
import { webhookTailPg } from "../../src/store/postgres/webhook-tail-pg";
import { webhooksPg } from "../../src/store/postgres/webhooks-pg";
import { bothStores, type Both } from "./differential";
import { partnersPg, partnersSqlite } from "./links-world";

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

/** Deliveries (two share an instant) and attempts (two share a start), written through the outbox's own operations. */
async function seed(w: WebhooksOps): Promise<void> {
  const d = (id: string, partnerId: string, atMs: number) => w.insert({ id, partnerId, type: `t.${id}`, body: "{}", occurredAtMs: atMs });
  await d("d1", "p1", 1000);
  await d("d3", "p1", 2000);
  await d("d2", "p2", 2000);
  await d("d4", "p2", 3000);
  const a = (deliveryId: string, startedAtMs: number) =>
    w.insertAttempt({ deliveryId, startedAtMs, httpStatus: 500, latencyMs: 7, outcome: "retry", error: "boom" });
  await a("d1", 1500);
  await a("d2", 2500);
  await a("d1", 2500);
  await a("d4", 3500);
}

const steps = async (t: WebhookTailOps) => [
  await t.tailStart(),
  await t.deliveriesAfter(0, "", null, 10),
  await t.deliveriesAfter(2000, "d2", null, 10),
  await t.deliveriesAfter(1000, "d1", "p1", 10),
  await t.deliveriesAfter(0, "", "p2", 1),
  await t.attemptsAfter(0, "", null, 10),
  await t.attemptsAfter(2500, "d1#2", null, 10),
  await t.attemptsAfter(2500, "d1#1", null, 10),
  await t.attemptsAfter(0, "", "p1", 10),
  await t.attemptsAfter(0, "", "p2", 1),
];

describe("issue 23: webhook tail operations answer on PostgreSQL as on SQLite", () => {
  it("tailStart on an empty outbox", async () => {
    both = await bothStores();
    const sqlite = await both.sqlite((tx) => tx.webhookTail.tailStart());
    const pg = await both.pg((sql) => webhookTailPg(sql).tailStart());
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual({ deliveryMs: 0, attemptMs: 0 });
  });

  it("tailStart, deliveriesAfter and attemptsAfter: keyset pages, partner filter, limit", async () => {
    both = await bothStores();
    await both.sqlite(async (tx) => {
      await partnersSqlite(tx, ["p1", "p2"]);
      await seed(tx.webhooks);
    });
    await both.pg(async (sql) => {
      await partnersPg(sql, ["p1", "p2"]);
      await seed(webhooksPg(sql));
    });
    const sqlite = await both.sqlite((tx) => steps(tx.webhookTail));
    const pg = await both.pg((sql) => steps(webhookTailPg(sql)));
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual({ deliveryMs: 3000, attemptMs: 3500 });
    expect((sqlite[1] as { id: string }[]).map((r) => r.id)).toEqual(["d1", "d2", "d3", "d4"]);
    expect((sqlite[6] as { tailKey: string }[]).map((r) => r.tailKey)).toEqual(["d2#1", "d4#1"]);
  });
});
