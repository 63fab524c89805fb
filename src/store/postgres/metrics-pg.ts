import type { MetricsOps } from "../store";
import type { Pg } from "./pg";

/** docs/operating.md: what the metrics endpoint reads at each scrape. Labels sort by bytes, as in SQLite. */
export function metricsPg(sql: Pg): MetricsOps {
  return {
    pendingDeliveries: async () =>
      (await sql<{ n: number }[]>`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)[0]?.n ?? 0,
    counts: async (family) => [
      ...(await sql<{ label: string; n: number }[]>`
        SELECT label, n FROM metric_counts WHERE family = ${family} ORDER BY label COLLATE "C"`),
    ],
  };
}
