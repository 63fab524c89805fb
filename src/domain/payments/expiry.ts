import type { TimerModule } from "../../timer-module";
import { expireIfDue } from "./transitions";

/** Timer kind of the 3D window end (docs/contract.md, Payment states); key = paymentCode, due = expiresAt. */
export const PAYMENT_EXPIRY_TIMER = "payment-expiry";

/**
 * The wheel's payment expiry, at exactly `expiresAt` (docs/decisions.md, Readings of the contract: passed means now >= expiresAt).
 * At-least-once: the handler re-reads the row, so a timer for a payment captured or failed
 * meanwhile does nothing, and one that fires early (the clock was set back) is put back.
 */
export const paymentExpiryTimer: TimerModule = {
  kind: PAYMENT_EXPIRY_TIMER,
  handler: (deps) => async (code) => {
    await deps.store.write(async (tx) => {
      const payment = await tx.payments.get(code);
      if (!payment || payment.status !== "initiated") return;
      const nowMs = deps.clock.nowMs();
      if (nowMs < payment.expiresAtMs) deps.timers.schedule(PAYMENT_EXPIRY_TIMER, code, payment.expiresAtMs);
      else await expireIfDue(tx, deps, payment, nowMs);
    });
  },
  pending: async (deps) => (await deps.store.q.payments.initiatedExpiries()).map((p) => ({ key: p.code, dueAtMs: p.expiresAtMs })),
  due: async (deps, nowMs, limit) =>
    (await deps.store.q.payments.dueExpiries(nowMs, limit)).map((p) => ({ key: p.code, dueAtMs: p.expiresAtMs })),
};
