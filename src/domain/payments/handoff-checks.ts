import type { Deps } from "../../deps";
import { isApiError } from "../../errors";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { maskPan } from "../checks/mask";
import { isChargeable } from "../installments/options";
import { toTerminalPricing } from "../installments/pricing";
import { resolveCardForTerminal, type ResolvedCard } from "../installments/service";
import type { InstallmentOptionJson } from "../installments/types";
import { exceededConnectionLimit } from "./connection-limits";
import { askSubscribers } from "./events";
import { ATTEMPTABLE_STATUSES, PAYMENT_TRANSITIONS } from "./machine";
import { isRouter } from "../routing/router-terminal";
import { routeOnRouter, serveOn, type Failover } from "./handoff-router";
import { routeAttempt, type AttemptRoute } from "./routing";
import { expireIfDue, failPayment } from "./transitions";
import type { CardForm } from "./card-form";
import { refuse, type HandoffRefusal } from "./handoff-outcomes";
import type { BinRow, PartnerRow } from "../../store/rows";
import type { PaymentRow } from "../../store/rows-money";

/**
 * Every check passed: the attempt is recorded as `starting` and the ref is used up. `failover`:
 * a router's attempt, which a technical failure before the buyer leaves hands to the next member.
 */
export type StartGranted = { kind: "granted"; payment: PaymentRow; attemptId: string; route: AttemptRoute; failover: Failover | null };

/** Checks 5-10 passed on the attempt's route: the card and the option it will be charged at. */
type Routed = {
  kind: "routed";
  route: AttemptRoute;
  card: BinRow | null;
  option: InstallmentOptionJson;
  /** A router chose the attempt's id before the attempt exists (a split draws from it). */
  attemptId?: string;
  failover?: Failover;
};

/**
 * Unit 1 of the handoff (docs/checkout.md, Checks in order): the checks in their order, then, when all pass, the attempt
 * recorded as `starting` and the payment marked "3D started" with the rate and card facts fixed
 * (docs/contract.md, Payments), all BEFORE the bank is called. A refusal returns instead of throwing, because some
 * refusals change state in this same unit (expiry, exhaustion, a counted attempt).
 *
 *  1. ref known                          404 payment_ref_invalid
 *  2. payment not past its window        404 payment_ref_expired (payment -> expired)
 *  3. 3D not already started             409 payment_prepare_already_started
 *  4. attempts left                      429 card_attempt_limit_exceeded (payment -> failed)
 * 4b. the subscribers let the payment take an attempt (events.ts `attemptRequested`; a link
 *     payment's link has attempts left: 10 over its life)
 *                                        429 card_attempt_limit_exceeded (not counted)
 *     the attempt's route is chosen here (routing.ts): checks 5-10 read its terminal and connection
 *  5. terminal still owned and active    403 terminal_not_allowed (not counted; our addition)
 *  6. connection active                  422 virtual_pos_inactive (not counted)
 *  7. PSP active                         422 psp_inactive (not counted)
 *  8. card type accepted                 403 terminal_not_allowed (family, docs/decisions.md, Readings of the contract) or
 *                                        422 virtual_pos_card_type_not_supported; counted, generic
 *  9. installment eligibility            422 installment_not_allowed (counted)
 * 10. connection limits                  422 generic page (not counted)
 * 11. the subscribers take the attempt (events.ts `attemptStarting`; a link payment's link moves
 *     to initiated from launched or failed, else 404 payment_ref_expired (link expired) or 409
 *     payment_prepare_already_started (another attempt in 3D, or the link cancelled or paid));
 *     not counted
 */
export async function decideStart(tx: Repos, deps: Deps, input: CardForm, nowMs: number): Promise<StartGranted | HandoffRefusal> {
  const byRef = await tx.payments.byRef(input.paymentRef);
  if (!byRef) return refuse("payment_ref_invalid");
  // docs/postgresql.md: two submits of one form (or two tabs) take turns; the second sees the 3D start.
  // Locks in the order every unit takes them: the link, its payment, then the connection.
  if (byRef.linkId !== null) await tx.links.lock(byRef.linkId);
  await tx.payments.lock(byRef.code);
  const found = (await tx.payments.get(byRef.code)) ?? byRef;
  const payment = await expireIfDue(tx, deps, found, nowMs);
  if (payment.status === "expired" || nowMs >= payment.expiresAtMs) return refuse("payment_ref_expired");
  if (payment.threeDStarted) return refuse("payment_prepare_already_started");
  const partner = await tx.partners.get(payment.partnerId);
  invariant(partner, `payment ${payment.code} refers to a missing partner`);
  if (payment.attemptsCounted >= partner.cardAttemptLimit) {
    await failPayment(tx, deps, payment, nowMs, PAYMENT_TRANSITIONS.exhaust);
    return refuse("card_attempt_limit_exceeded");
  }
  const requested = await askSubscribers(tx, deps, "attemptRequested", payment, nowMs);
  if (requested !== null) return refuse(requested);
  // Only an initiated payment can get here with its ref unused; anything else is settled.
  if (!(ATTEMPTABLE_STATUSES as readonly string[]).includes(payment.status)) return refuse("payment_prepare_already_started");
  const routed = await checkRoute(tx, deps, payment, partner, input.bin8, nowMs);
  if (routed.kind === "refused") return routed;
  // Last, so a subscriber's rows move only for an attempt that will start (a link takes one
  // attempt at a time, and none once cancelled, expired or paid).
  const starting = await askSubscribers(tx, deps, "attemptStarting", payment, nowMs);
  if (starting !== null) return refuse(starting);
  const attemptId = routed.attemptId ?? deps.ids.attemptId();
  const { route, card, option } = routed;
  // A router's payment counts from now on the serving member's connection (docs/routing.md, Limits).
  if (routed.failover) await serveOn(tx, payment.code, route.connectionId, nowMs);
  await tx.attempts.insert({ id: attemptId, paymentCode: payment.code, status: "starting", counted: false, createdAtMs: nowMs, ...route });
  const started = await tx.payments.markThreeDStarted(
    payment.code,
    ATTEMPTABLE_STATUSES,
    {
      maskedPan: maskPan(input.card.pan),
      cardBrand: card?.brand ?? null,
      cardFamily: card?.family ?? null,
      cardBank: card?.bank ?? null,
      appliedRateBps: option.rateBps,
      appliedFixedFee: option.fixedFee,
    },
    nowMs,
  );
  invariant(started, "a payment that passed the checks in this unit can start 3D");
  return { kind: "granted", payment, attemptId, route, failover: routed.failover ?? null };
}

/**
 * Checks 5-10 on the attempt's route: its terminal as it stands now, its connection and PSP, the
 * card and count priced on that terminal with that connection's card rules, then that connection's
 * limits. A card or count refusal counts an attempt (recorded with the route it was checked on).
 */
async function checkRoute(
  tx: Repos,
  deps: Deps,
  payment: PaymentRow,
  partner: PartnerRow,
  bin8: string,
  nowMs: number,
): Promise<Routed | HandoffRefusal> {
  const terminal = await tx.catalog.terminal(payment.terminalId);
  if (terminal && isRouter(terminal)) {
    if (!terminal.active || terminal.partnerId !== partner.id) return refuse("terminal_not_allowed");
    const routed = await routeOnRouter(tx, deps, payment, partner, terminal, bin8, nowMs);
    if (routed.kind === "routed") return routed;
    if (routed.counted) await countAttempt(tx, deps, payment, routed.route, nowMs, routed.attemptId);
    return refuse(routed.code, routed.shown);
  }
  const route = await routeAttempt(tx, payment);
  const resolved = await resolveForCard(tx, route.terminalId, partner, bin8);
  if (resolved === null) return refuse("terminal_not_allowed");
  const connection = await tx.catalog.connection(route.connectionId);
  invariant(connection, `payment ${payment.code} routes to a missing connection ${route.connectionId}`);
  if (!connection.active) return refuse("virtual_pos_inactive");
  if (!(await tx.catalog.psp(connection.pspId))?.active) return refuse("psp_inactive");
  const pricing = toTerminalPricing(resolved.terminal, connection, partner.installmentCap);
  const charge = isChargeable(pricing, resolved.card, payment.installment);
  if (charge.outcome === "rejected") {
    await countAttempt(tx, deps, payment, route, nowMs);
    return refuse(charge.code, charge.code === "installment_not_allowed");
  }
  // A limit shows the buyer a generic page (docs/checkout.md, Checks in order); the code stays in
  // the log, never on the page.
  const limit = await exceededConnectionLimit(tx, connection, payment.amount, nowMs, payment.code);
  if (limit !== null) return refuse(limit, false);
  return { kind: "routed", route, card: resolved.card, option: charge.option };
}

/** The terminal as it stands now; null when it was deactivated or moved since the payment. */
async function resolveForCard(tx: Repos, terminalId: string, partner: PartnerRow, bin8: string): Promise<ResolvedCard | null> {
  try {
    return await resolveCardForTerminal(tx, terminalId, partner, bin8);
  } catch (error) {
    if (isApiError(error) && error.code === "terminal_not_allowed") return null;
    throw error;
  }
}

/** A refusal that uses up one of the payment's card attempts (docs/decisions.md, Readings of the contract). */
async function countAttempt(
  tx: Repos,
  deps: Deps,
  payment: PaymentRow,
  route: AttemptRoute,
  nowMs: number,
  id = deps.ids.attemptId(),
): Promise<void> {
  const attempt = { id, paymentCode: payment.code, status: "declined" as const, counted: true, createdAtMs: nowMs };
  await tx.attempts.insert({ ...attempt, ...route });
  const counted = await tx.payments.countAttempt(payment.code, ATTEMPTABLE_STATUSES, nowMs);
  invariant(counted, "an initiated payment without 3D started can count an attempt");
}
