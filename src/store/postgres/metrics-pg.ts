import type { MetricsOps } from "../store";
import type { Pg } from "./pg";

/**
 * docs/operating.md: what the metrics endpoint reads at each scrape. Labels sort by bytes, as in
 * SQLite; a count is the sum of its label's shards (schema.sql, metric_counts).
 */
export function metricsPg(sql: Pg): MetricsOps {
  return {
    pendingDeliveries: async () =>
      (await sql<{ n: number }[]>`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)[0]?.n ?? 0,
    counts: async (family) => [
      ...(await sql<{ label: string; n: number }[]>`
        SELECT label, SUM(n)::bigint AS n FROM metric_counts WHERE family = ${family}
        GROUP BY label ORDER BY label COLLATE "C"`),
    ],
  };
}
