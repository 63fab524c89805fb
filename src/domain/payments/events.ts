import type { ErrorCode } from "../../errors";
import type { PaymentRow } from "../../store/rows-money";
import type { Repos } from "../../store/store";

// In-unit payment events. A payment's transitions tell whoever else keeps rows about the payment
// (today: its payment link) INSIDE the unit of work that moves the payment, awaited in turn, so
// their rows change atomically with the payment's and their outbox rows follow the payment's in
// the same order every time. Subscribers are handed in at composition (Deps.paymentSubscribers);
// this folder never imports a subscriber, so the dependency points from them to payments.
//
// `payment` is the row as the transition found it (its code, partner, link and amounts; not
// necessarily its new status); `atMs` is the instant the change took effect.

type Handler<D, A> = (tx: Repos, deps: D, payment: PaymentRow, atMs: number) => Promise<A>;

/**
 * What a subscriber may hear. Questions come before the payment's step and may refuse it with a
 * catalog code (the first refusal answers; later subscribers are not asked); notices come after
 * the payment moved and cannot refuse.
 */
export type PaymentSubscriber<D> = {
  /** Question, handoff check 4b: may this payment take a card attempt at all? */
  attemptRequested?: Handler<D, ErrorCode | null>;
  /** Question, the handoff's last check: every other passed and the attempt enters 3D Secure now. */
  attemptStarting?: Handler<D, ErrorCode | null>;
  /** Question, before the callback sends a capture and again before its answer is recorded. */
  capturing?: Handler<D, ErrorCode | null>;
  /** Notice: the bank declined at 3D start; the payment stays initiated and its ref is free again. */
  attemptReleased?: Handler<D, void>;
  /** Notice: initiated -> failed (3D or capture rejected, allowance exhausted, superseded). */
  failed?: Handler<D, void>;
  /** Notice: initiated -> expired (the 3D window passed); `atMs` is the payment's expiresAt. */
  expired?: Handler<D, void>;
  /** Notice: initiated -> captured. */
  captured?: Handler<D, void>;
};

export type PaymentQuestion = "attemptRequested" | "attemptStarting" | "capturing";
export type PaymentNotice = "attemptReleased" | "failed" | "expired" | "captured";

/** Whatever carries the subscribers (Deps); generic so that this file needs no import of Deps. */
type WithSubscribers<D> = { paymentSubscribers: readonly PaymentSubscriber<D>[] };

/** Asks every subscriber in order; the first refusal is the answer, null when none refuses. */
export async function askSubscribers<D extends WithSubscribers<D>>(
  tx: Repos,
  deps: D,
  question: PaymentQuestion,
  payment: PaymentRow,
  atMs: number,
): Promise<ErrorCode | null> {
  for (const subscriber of deps.paymentSubscribers) {
    const refusal = (await subscriber[question]?.(tx, deps, payment, atMs)) ?? null;
    if (refusal !== null) return refusal;
  }
  return null;
}

/** Tells every subscriber in order, each awaited before the next. */
export async function notifySubscribers<D extends WithSubscribers<D>>(
  tx: Repos,
  deps: D,
  notice: PaymentNotice,
  payment: PaymentRow,
  atMs: number,
): Promise<void> {
  for (const subscriber of deps.paymentSubscribers) await subscriber[notice]?.(tx, deps, payment, atMs);
}
