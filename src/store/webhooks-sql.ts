import type { Db } from "./db";

export type DeliveryStatus = "pending" | "delivered" | "failed" | "dropped";

export type DeliveryRow = {
  id: string;
  partnerId: string;
  type: string;
  body: string;
  occurredAtMs: number;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAtMs: number | null;
  firstAttemptAtMs: number | null;
  createdAtMs: number;
  updatedAtMs: number;
};

const DELIVERY_COLUMNS = `id, partner_id AS partnerId, type, body, occurred_at_ms AS occurredAtMs, status, attempts,
  next_attempt_at_ms AS nextAttemptAtMs, first_attempt_at_ms AS firstAttemptAtMs, created_at_ms AS createdAtMs,
  updated_at_ms AS updatedAtMs`;

export function webhooksSql(db: Db) {
  return {
    /** The outbox row, written in the same unit of work as the state change it reports (product 11). */
    insert(d: Pick<DeliveryRow, "id" | "partnerId" | "type" | "body" | "occurredAtMs">): void {
      db.prepare(
        `INSERT INTO webhook_deliveries (id, partner_id, type, body, occurred_at_ms, status, attempts, next_attempt_at_ms,
           first_attempt_at_ms, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, ?)`,
      ).run(d.id, d.partnerId, d.type, d.body, d.occurredAtMs, d.occurredAtMs, d.occurredAtMs, d.occurredAtMs);
    },
    get: (id: string) => db.prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`).get<DeliveryRow>(id),
  };
}
