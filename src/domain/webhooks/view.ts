import { toIso } from "../../iso-time";
import type { DeliveryRow, WebhookAttemptRow } from "../../store/rows";

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));

/** A delivery for operators (`kasa webhooks list|show --json`); `attempts` counts every recorded attempt. */
export function toDeliveryJson(row: DeliveryRow, attemptCount: number) {
  return {
    id: row.id,
    partnerId: row.partnerId,
    type: row.type,
    status: row.status,
    attempts: attemptCount,
    occurredAt: toIso(row.occurredAtMs),
    // null while pending means an attempt is in flight right now.
    nextAttemptAt: isoOrNull(row.nextAttemptAtMs),
    firstAttemptAt: isoOrNull(row.firstAttemptAtMs),
    createdAt: toIso(row.createdAtMs),
    updatedAt: toIso(row.updatedAtMs),
  };
}

export function toAttemptJson(a: WebhookAttemptRow) {
  return {
    n: a.n,
    startedAt: toIso(a.startedAtMs),
    outcome: a.outcome,
    httpStatus: a.httpStatus,
    latencyMs: a.latencyMs,
    error: a.error,
  };
}

export type DeliveryJson = ReturnType<typeof toDeliveryJson>;
export type AttemptJson = ReturnType<typeof toAttemptJson>;
