import type { Db } from "./db";

/** product 19: webhook outbox rows still to be delivered (the deliveries_due index answers it). */
export function pendingDeliveries(db: Db): number {
  return db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'").get<{ n: number }>()?.n ?? 0;
}

/** product 19: the trigger-kept counts of one family (schema.sql `metric_counts`), by label. */
export function metricCounts(db: Db, family: "payment" | "refund" | "delivery"): Array<{ label: string; n: number }> {
  return db.prepare("SELECT label, n FROM metric_counts WHERE family = ? ORDER BY label").all<{ label: string; n: number }>(family);
}
