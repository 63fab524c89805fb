import { invariant } from "../../invariant";
import type { AttemptRow, PaymentRow, RouteRecord } from "../../store/rows-money";
import type { Repos } from "../../store/store";

/** Where one card attempt goes: the terminal that serves it and the connection whose bank is called. */
export type AttemptRoute = { terminalId: string; connectionId: string; route: RouteRecord | null };

/**
 * Chooses the attempt's terminal and connection, once, at 3D start (the handoff's unit 1, before
 * the connection checks); the attempt row records the answer and every later step of the attempt
 * (the connection checks and limits of the handoff, the 3D start, the callback, the capture, its
 * checks and a late capture's void; refunds and settlement by the captured attempt) follows it.
 *
 * Today: the payment's own terminal and the connection the payment counted against at create
 * (`payment.connectionId`). Before the attempt recorded a route, two answers could disagree when
 * an operator moved the terminal to another connection between create and 3D start: the handoff's
 * checks (connection and PSP active, card types, limits) read the terminal's connection as it
 * stood then, while the 3D start, the callback, the capture and refunds called the bank of the
 * payment's connection. The single decision takes the payment's connection: it is where the
 * payment's limits were counted (and stay counted until it ends), and the bank that would have
 * taken the money either way, so the only change is that the checks now read that same
 * connection. Routing one terminal's attempts over several banks replaces this body; that change
 * also moves the payment onto the serving member's connection in the same unit.
 */
export async function routeAttempt(_q: Repos, payment: PaymentRow): Promise<AttemptRoute> {
  return { terminalId: payment.terminalId, connectionId: payment.connectionId, route: null };
}

/** The connection an attempt was routed to; every attempt kasa records has one. */
export function connectionOfAttempt(attempt: AttemptRow): string {
  invariant(attempt.connectionId !== null, `attempt ${attempt.id} has no connection`);
  return attempt.connectionId;
}
