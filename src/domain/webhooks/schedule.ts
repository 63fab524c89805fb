/**
 * Retry schedule of webhook deliveries (docs/contract.md, Delivery and retry / Webhooks).
 *
 * Delays count from the moment an attempt failed, not from when it was due, so a slow receiver
 * (up to the 5 s timeout) or a late worker pushes later attempts back instead of bunching them.
 * There is no jitter: the schedule is part of the documented contract and tests assert it exactly.
 */

import { WEBHOOK_GIVE_UP_AFTER_MS, WEBHOOK_RETRY_DELAYS_MS } from "../../limits";

/** One first attempt plus one per retry delay. */
export const MAX_DELIVERY_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

export interface NextAttemptInput {
  /** 1-based number of the attempt that just failed with a retryable outcome. */
  attempt: number;
  failedAtMs: number;
  firstAttemptAtMs: number;
}

/**
 * When the next attempt is due, or `null` when the delivery is dropped (attempts exhausted, or the
 * next attempt would fall after the 24 h window). Landing exactly on the window's end is allowed.
 */
export function nextAttemptAtMs(input: NextAttemptInput): number | null {
  const { attempt, failedAtMs, firstAttemptAtMs } = input;
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be a 1-based integer, got ${attempt}`);
  }
  // Index 0 is the delay after attempt 1.
  const delayMs = WEBHOOK_RETRY_DELAYS_MS[attempt - 1];
  if (delayMs === undefined) return null;
  const dueAtMs = failedAtMs + delayMs;
  return dueAtMs > deliveryDeadlineAtMs(firstAttemptAtMs) ? null : dueAtMs;
}

export function deliveryDeadlineAtMs(firstAttemptAtMs: number): number {
  return firstAttemptAtMs + WEBHOOK_GIVE_UP_AFTER_MS;
}

/**
 * Whether an attempt may still be sent now. The worker asks this before sending because a due
 * attempt can be picked up late (the service was down); after the window it is dropped unsent.
 * `firstAttemptAtMs` is null before the first attempt, which is always allowed.
 */
export function mayAttemptAt(nowMs: number, firstAttemptAtMs: number | null): boolean {
  return firstAttemptAtMs === null || nowMs <= deliveryDeadlineAtMs(firstAttemptAtMs);
}

export type AttemptOutcome = "delivered" | "permanent" | "retry";

export type DeliveryPlan =
  | { state: "delivered" }
  | { state: "failed"; reason: "permanent" | "exhausted" }
  | { state: "pending"; nextAttemptAtMs: number };

/**
 * What the outbox row becomes after an attempt: the single decision the worker needs, so the
 * worker only stores the plan. "exhausted" covers both the attempt cap and the 24 h window.
 */
export function planAfterAttempt(input: NextAttemptInput & { outcome: AttemptOutcome }): DeliveryPlan {
  if (input.outcome === "delivered") return { state: "delivered" };
  if (input.outcome === "permanent") return { state: "failed", reason: "permanent" };
  const dueAtMs = nextAttemptAtMs(input);
  return dueAtMs === null ? { state: "failed", reason: "exhausted" } : { state: "pending", nextAttemptAtMs: dueAtMs };
}
