import type { Db } from "./db";

/** product 19: webhook outbox rows still to be delivered (the deliveries_due index answers it). */
export function pendingDeliveries(db: Db): number {
  return db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'").get<{ n: number }>()?.n ?? 0;
}
