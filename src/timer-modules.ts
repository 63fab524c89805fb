import { captureCheckTimer } from "./domain/payments/capture-checks";
import { linkExpiryTimer } from "./domain/payment-links/expiry";
import { paymentExpiryTimer } from "./domain/payments/expiry";
import { reconcileTimer } from "./domain/reconciliation/timer";
import { refundCheckTimer } from "./domain/refunds/timer";
import { dayendTimer, payoutTimer } from "./domain/settlement/timers";
import { webhookSweepModule, webhookTimerModule } from "./domain/webhooks/timers";
import type { TimerModule } from "./timer-module";

/** Every kind of timer the service runs; the composition root hands them to the wheel. */
export const TIMER_MODULES: TimerModule[] = [
  webhookTimerModule,
  webhookSweepModule,
  linkExpiryTimer,
  paymentExpiryTimer,
  refundCheckTimer,
  captureCheckTimer,
  dayendTimer,
  payoutTimer,
  reconcileTimer,
];
