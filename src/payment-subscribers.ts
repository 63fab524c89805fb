import type { Deps } from "./deps";
import { linkPaymentSubscriber } from "./domain/link-checkout/payment-events";
import type { PaymentSubscriber } from "./domain/payments/events";

/**
 * Who hears a payment's in-unit events (domain/payments/events.ts), in this order. Assembled here,
 * where the service is composed, so the payments folder never imports a subscriber: payment
 * links depend on payments, never the other way round.
 */
export const PAYMENT_SUBSCRIBERS: readonly PaymentSubscriber<Deps>[] = [linkPaymentSubscriber];
