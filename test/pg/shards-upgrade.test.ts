import postgres from "postgres";
import { afterEach, describe, expect, inject, it } from "vitest";
import { applySchema, tableColumns } from "../../src/store/postgres/inspect";
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
    // The two tables as the versions before the split made them.
    await sql`CREATE TABLE connection_usage (connection_id text COLLATE "C" NOT NULL, unit text COLLATE "C" NOT NULL,
      key bigint NOT NULL, amount bigint NOT NULL, PRIMARY KEY (connection_id, unit, key))`;
    await sql`CREATE TABLE metric_counts (family text COLLATE "C" NOT NULL, label text COLLATE "C" NOT NULL,
      n bigint NOT NULL, PRIMARY KEY (family, label))`;
    await sql`INSERT INTO connection_usage VALUES ('c1', 'd', 20000, 500)`;
    await sql`INSERT INTO metric_counts VALUES ('payment', 'initiated', 7)`;
    await applySchema(sql);
    await applySchema(sql);
    expect([...(await sql`SELECT connection_id, unit, key::int, amount::int, shard::int FROM connection_usage`)]).toEqual([
      { connection_id: "c1", unit: "d", key: 20000, amount: 500, shard: 0 },
    ]);
    expect([...(await sql`SELECT family, label, n::int, shard::int FROM metric_counts`)]).toEqual([
      { family: "payment", label: "initiated", n: 7, shard: 0 },
    ]);
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
      const [first] = await session`SELECT kasa_shard()::int AS s`;
      const [again] = await session`SELECT kasa_shard()::int AS s`;
      expect(again?.s).toBe(first?.s);
      shards.push(first?.s as number);
      await session`INSERT INTO metric_counts AS m (family, label, n, shard) VALUES ('payment', 'initiated', 1, kasa_shard())
        ON CONFLICT (family, label, shard) DO UPDATE SET n = m.n + 1`;
      await session.end();
    }
    expect(new Set(shards).size).toBe(3);
    expect(await metricsPg(admin).counts("payment")).toEqual([{ label: "initiated", n: 3 }]);
  });
});
