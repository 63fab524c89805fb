import { afterEach, describe, expect, it } from "vitest";
import type { MetricsOps } from "../../src/store/store";
import { metricsPg } from "../../src/store/postgres/metrics-pg";
import { bothStores, type Both } from "./differential";

// Issue 23: the metrics reads answer on PostgreSQL as on SQLite. Their rows come from payments,
// refunds and webhook deliveries (the triggers of schema.sql), whose PostgreSQL operations are
// another group's; until those exist here, this compares the empty database's answers.

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

describe("product 22: metrics operations answer on PostgreSQL as on SQLite", () => {
  it("pendingDeliveries and counts of every family on an empty database", async () => {
    both = await bothStores();
    const steps = async (m: MetricsOps) => [
      await m.pendingDeliveries(),
      await m.counts("payment"),
      await m.counts("refund"),
      await m.counts("delivery"),
    ];
    const sqlite = await both.sqlite((tx) => steps(tx.metrics));
    const pg = await both.pg((sql) => steps(metricsPg(sql)));
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual([0, [], [], []]);
  });
});
