import postgres from "postgres";
import { afterEach, describe, expect, inject, it } from "vitest";
import { applySchema, countInSessionShard, createUnshardedTotals, shardedTotals, tableColumns } from "../../src/store/postgres/inspect";
import { metricsPg } from "../../src/store/postgres/metrics-pg";
import { connectPg } from "../../src/store/postgres/pg";
import { freshDatabase } from "../support/pg-cluster";

// Issue 37 (docs/postgresql.md, "Connection limits across instances"): the running totals and the
// metric counts are split into rows per writing session (`shard`). A database made before the
// split keeps every total and count: its rows become shard 0, under a key that includes the shard.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe("issue 37: running totals and metric counts split by session, on a database made before", () => {
  it("keeps each row, in shard 0, and the primary keys include the shard", async () => {
    const db = await freshDatabase(inject("pgUrl"));
    closers.push(() => db.drop());
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    closers.push(() => sql.end());
    await createUnshardedTotals(sql);
    await applySchema(sql);
    await applySchema(sql);
    expect(await shardedTotals(sql)).toEqual({
      usage: [{ connection_id: "c1", unit: "d", key: 20000, amount: 500, shard: 0 }],
      counts: [{ family: "payment", label: "initiated", n: 7, shard: 0 }],
    });
    const keys = (await tableColumns(sql)).filter((c) => c.pk > 0 && ["connection_usage", "metric_counts"].includes(c.table));
    expect(keys.map((c) => `${c.table}.${c.column}`)).toEqual([
      "connection_usage.connection_id",
      "connection_usage.unit",
      "connection_usage.key",
      "connection_usage.shard",
      "metric_counts.family",
      "metric_counts.label",
      "metric_counts.shard",
    ]);
  });

  it("sessions opened one after another write to different shards, and a count is the sum over them", async () => {
    const db = await freshDatabase(inject("pgUrl"));
    closers.push(() => db.drop());
    const admin = connectPg(db.url, 1); // kasa's own connection: int8 read as a number
    closers.push(() => admin.end());
    await applySchema(admin);
    const shards: number[] = [];
    for (let i = 0; i < 3; i++) {
      const session = postgres(db.url, { max: 1, onnotice: () => {} });
      const first = await countInSessionShard(session);
      expect(await countInSessionShard(session)).toBe(first); // kept for the session
      shards.push(first);
      await session.end();
    }
    expect(new Set(shards).size).toBe(3);
    expect(await metricsPg(admin).counts("payment")).toEqual([{ label: "initiated", n: 6 }]);
  });
});
