import type { Db } from "./db-types";

/** docs/operating.md: what the metrics endpoint reads at each scrape. */
export function metricsSql(db: Db) {
  return {
    /** Webhook outbox rows still to be delivered (the deliveries_due index answers it). */
    pendingDeliveries: (): number =>
      db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'").get<{ n: number }>()?.n ?? 0,
    /** The trigger-kept counts of one family (schema.sql `metric_counts`), by label. */
    counts: (family: "payment" | "refund" | "delivery"): Array<{ label: string; n: number }> =>
      db.prepare("SELECT label, n FROM metric_counts WHERE family = ? ORDER BY label").all<{ label: string; n: number }>(family),
  };
}
