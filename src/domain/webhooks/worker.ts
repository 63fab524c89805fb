/**
 * The outbox worker (docs/contract.md, Delivery and retry / Webhooks): the handler of timer kind "webhook", keyed by
 * delivery id. One attempt is three steps, so no transaction is ever held open across the network:
 *
 *   1. claim, in a unit: the row must still be pending and due; it is counted and marked in flight
 *      (`next_attempt_at_ms` NULL);
 *   2. send, outside any transaction, to the partner's current URL with its current secret;
 *   3. record, in one unit: the attempt row, the row's new state, the next attempt's timer.
 *
 * A process that dies between 1 and 3 leaves the row in flight; the next start resumes it and the
 * same attempt is sent again (at-least-once; receivers deduplicate by delivery id, 6.3 rule 3). A
 * recorded success is final: only an operator's resend makes the row pending again.
 *
 * The handler awaits its own send. The wheel runs the handlers of one batch concurrently, and the
 * semaphores keep at most WEBHOOK_CONCURRENCY of them on the network, at most
 * WEBHOOK_CONCURRENCY_PER_PARTNER of one partner, so a sandbox clock move
 * returns after the attempts it made due, while one hanging receiver costs one deadline (5 s), not
 * the others' turn. Requests never wait for any of this: the outbox only schedules.
 */
import type { Deps } from "../../deps";
import { WEBHOOK_CONCURRENCY, WEBHOOK_CONCURRENCY_PER_PARTNER, WEBHOOK_TIMEOUT_MS } from "../../limits";
import type { TimerHandler } from "../../timers";
import { WEBHOOK_TIMER } from "./outbox";
import { mayAttemptAt, planAfterAttempt, type DeliveryPlan } from "./schedule";
import { Slots } from "./slots";
import { attemptDelivery, type AttemptResult, type TargetOptions } from "./target";
import type { DeliveryRow, DeliveryStatus } from "../../store/rows";
import { inLane } from "../../store/store";

export type WorkerOptions = TargetOptions & { concurrency?: number; perPartner?: number };

export type WebhookWorker = {
  handle: TimerHandler;
  /** Attempts running now and attempts waiting for a slot (observability, tests). */
  readonly load: { running: number; waiting: number };
};

type WorkerDeps = Pick<Deps, "store" | "clock" | "config" | "timers" | "log">;

/**
 * An in-flight row is only taken over once its claim is older than the longest a live attempt can
 * take, so a second process opened on the same database (an operator command) cannot resend an
 * attempt that is still running elsewhere.
 */
export const ORPHAN_AFTER_MS = WEBHOOK_TIMEOUT_MS;

export function createWebhookWorker(deps: WorkerDeps, options: WorkerOptions = {}): WebhookWorker {
  const slots = new Slots(options.concurrency ?? WEBHOOK_CONCURRENCY);
  // docs/decisions.md, Hardening: a partner's deliveries first wait for one of its own slots, then for a shared one,
  // so one partner's slow receiver holds at most WEBHOOK_CONCURRENCY_PER_PARTNER shared slots.
  const perPartner = new Map<string, Slots>();
  const partnerSlots = (partnerId: string): Slots => {
    const known = perPartner.get(partnerId);
    if (known) return known;
    const own = new Slots(options.perPartner ?? WEBHOOK_CONCURRENCY_PER_PARTNER);
    perPartner.set(partnerId, own);
    return own;
  };
  // Rows this process has taken and not yet recorded; a duplicate timer for one of them is a no-op.
  const mine = new Set<string>();

  const isDue = (row: DeliveryRow, nowMs: number): boolean =>
    row.status === "pending" &&
    !mine.has(row.id) &&
    (row.nextAttemptAtMs === null ? nowMs >= row.updatedAtMs + ORPHAN_AFTER_MS : nowMs >= row.nextAttemptAtMs);

  async function attemptOnce(id: string): Promise<void> {
    // Re-read after waiting for a slot: the row is the truth, the timer only a hint.
    const startedAtMs = deps.clock.nowMs();
    const row = await deps.store.q.webhooks.get(id);
    if (!row || row.status !== "pending") return;
    if (row.nextAttemptAtMs !== null && startedAtMs < row.nextAttemptAtMs) return;
    // Claimed meanwhile (another instance, docs/postgresql.md): in flight, and not orphaned before its deadline.
    if (row.nextAttemptAtMs === null && startedAtMs < row.updatedAtMs + ORPHAN_AFTER_MS) return;
    if (!mayAttemptAt(startedAtMs, row.firstAttemptAtMs)) {
      const dropped = await deps.store.write((tx) => tx.webhooks.dropUnsent(id, row.nextAttemptAtMs, startedAtMs));
      if (dropped) deps.log.info("webhook dropped", { deliveryId: id, reason: "24 h window passed before the attempt" });
      return;
    }
    const resumed = row.nextAttemptAtMs === null;
    const claimed = await deps.store.write(
      inLane(`delivery:${id}`, async (tx) =>
        resumed
          ? await tx.webhooks.claimOrphan(id, row.updatedAtMs, startedAtMs)
          : await tx.webhooks.claim(id, row.nextAttemptAtMs as number, startedAtMs),
      ),
    );
    if (!claimed) return;
    const attempt = resumed ? row.attempts : row.attempts + 1;
    const firstAttemptAtMs = row.firstAttemptAtMs ?? startedAtMs;
    const partner = await deps.store.q.partners.get(row.partnerId);
    const result = await attemptDelivery(row, partner, deps.config, options);
    await recordAttempt(deps, row, { attempt, firstAttemptAtMs, startedAtMs }, result);
  }

  const handle: TimerHandler = async (id, dueAtMs) => {
    const nowMs = deps.clock.nowMs();
    // Never a millisecond early; a stale or duplicate timer finds the row not due and does nothing.
    if (nowMs < dueAtMs) return;
    const row = await deps.store.q.webhooks.get(id);
    if (!row || !isDue(row, nowMs)) return;
    // Taken synchronously, before the first await, so a duplicate timer in the same batch sees it.
    mine.add(id);
    const own = partnerSlots(row.partnerId);
    try {
      await own.run(() => slots.run(() => attemptOnce(id)));
    } catch (error) {
      // A unit that could not commit (e.g. the database stayed locked past busy_timeout) must not
      // strand the row without a timer: look again once an in-flight claim counts as orphaned.
      deps.timers.schedule(WEBHOOK_TIMER, id, deps.clock.nowMs() + ORPHAN_AFTER_MS);
      throw error;
    } finally {
      mine.delete(id);
      if (own.running === 0 && own.waiting === 0) perPartner.delete(row.partnerId);
    }
  };

  return {
    handle,
    get load() {
      return { running: slots.running, waiting: slots.waiting };
    },
  };
}

/** Step 3: the attempt row, the delivery's new state and the next attempt's timer, in one unit. */
async function recordAttempt(
  deps: WorkerDeps,
  row: DeliveryRow,
  at: { attempt: number; firstAttemptAtMs: number; startedAtMs: number },
  result: AttemptResult,
): Promise<void> {
  const finishedAtMs = deps.clock.nowMs();
  const plan = planAfterAttempt({
    outcome: result.outcome,
    attempt: at.attempt,
    failedAtMs: finishedAtMs,
    firstAttemptAtMs: at.firstAttemptAtMs,
  });
  const settled = settledStatus(plan);
  const n = await deps.store.write(
    inLane(`delivery:${row.id}`, async (tx) => {
      const number = await tx.webhooks.insertAttempt({ deliveryId: row.id, startedAtMs: at.startedAtMs, ...result });
      if (plan.state !== "pending") await tx.webhooks.settle(row.id, settled ?? "failed", finishedAtMs);
      else if (await tx.webhooks.reschedule(row.id, plan.nextAttemptAtMs, finishedAtMs)) {
        deps.timers.schedule(WEBHOOK_TIMER, row.id, plan.nextAttemptAtMs);
      }
      return number;
    }),
  );
  deps.log.info("webhook attempt", {
    deliveryId: row.id,
    partnerId: row.partnerId,
    n,
    outcome: result.outcome,
    httpStatus: result.httpStatus,
    latencyMs: result.latencyMs,
    error: result.error,
    status: settled ?? "pending",
  });
}

/**
 * The stored end state of a plan: a receiver's final word (or a target that can never work) is
 * "failed"; running out of attempts or of the 24 h window is "dropped" (docs/contract.md, Delivery and retry).
 */
function settledStatus(plan: DeliveryPlan): Exclude<DeliveryStatus, "pending"> | null {
  if (plan.state === "pending") return null;
  if (plan.state === "delivered") return "delivered";
  return plan.reason === "exhausted" ? "dropped" : "failed";
}
