import type { Deps } from "../../deps";
import { isApiError } from "../../errors";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { maskPan } from "../checks/mask";
import { isChargeable } from "../installments/options";
import { resolveCardForTerminal, type ResolvedCard } from "../installments/service";
import { exceededConnectionLimit } from "./connection-limits";
import { askSubscribers } from "./events";
import { ATTEMPTABLE_STATUSES, PAYMENT_TRANSITIONS } from "./machine";
import { expireIfDue, failPayment } from "./transitions";
import type { CardForm } from "./card-form";
import { refuse, type HandoffRefusal } from "./handoff-outcomes";
import type { PartnerRow, PaymentRow } from "../../store/rows";

/** Every check passed: the attempt is recorded as `starting` and the ref is used up. */
export type StartGranted = { kind: "granted"; payment: PaymentRow; attemptId: string };

/**
 * Unit 1 of the handoff (product 6.2): the checks in their order, then, when all pass, the attempt
 * recorded as `starting` and the payment marked "3D started" with the rate and card facts fixed
 * (product 5), all BEFORE the bank is called. A refusal returns instead of throwing, because some
 * refusals change state in this same unit (expiry, exhaustion, a counted attempt).
 *
 *  1. ref known                          404 payment_ref_invalid
 *  2. payment not past its window        404 payment_ref_expired (payment -> expired)
 *  3. 3D not already started             409 payment_prepare_already_started
 *  4. attempts left                      429 card_attempt_limit_exceeded (payment -> failed)
 * 4b. the subscribers let the payment take an attempt (events.ts `attemptRequested`; a link
 *     payment's link has attempts left, product 23: 10 over its life)
 *                                        429 card_attempt_limit_exceeded (not counted)
 *  5. terminal still owned and active    403 terminal_not_allowed (not counted; our addition)
 *  6. connection active                  422 virtual_pos_inactive (not counted)
 *  7. PSP active                         422 psp_inactive (not counted)
 *  8. card type accepted                 403 terminal_not_allowed (family, product 16) or
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
  // Product 22: two submits of one form (or two tabs) take turns; the second sees the 3D start.
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
  const resolved = await resolveForCard(tx, payment, partner, input.bin8);
  if (resolved === null) return refuse("terminal_not_allowed");
  if (!resolved.connection.active) return refuse("virtual_pos_inactive");
  if (!(await tx.catalog.psp(resolved.connection.pspId))?.active) return refuse("psp_inactive");
  const charge = isChargeable(resolved.pricing, resolved.card, payment.installment);
  if (charge.outcome === "rejected") {
    await countAttempt(tx, deps, payment, nowMs);
    return refuse(charge.code, charge.code === "installment_not_allowed");
  }
  // Interface 7.5: the buyer sees a generic page; the code stays in the log, never on the page.
  const limit = await exceededConnectionLimit(tx, resolved.connection, payment.amount, nowMs, payment.code);
  if (limit !== null) return refuse(limit, false);
  // Interface 3.1: a link takes one attempt at a time, and none once cancelled, expired or paid.
  const starting = await askSubscribers(tx, deps, "attemptStarting", payment, nowMs);
  if (starting !== null) return refuse(starting);
  const attemptId = deps.ids.attemptId();
  await tx.attempts.insert({ id: attemptId, paymentCode: payment.code, status: "starting", counted: false, createdAtMs: nowMs });
  const card = resolved.card;
  const started = await tx.payments.markThreeDStarted(
    payment.code,
    ATTEMPTABLE_STATUSES,
    {
      maskedPan: maskPan(input.card.pan),
      cardBrand: card?.brand ?? null,
      cardFamily: card?.family ?? null,
      cardBank: card?.bank ?? null,
      appliedRateBps: charge.option.rateBps,
      appliedFixedFee: charge.option.fixedFee,
    },
    nowMs,
  );
  invariant(started, "a payment that passed the checks in this unit can start 3D");
  return { kind: "granted", payment, attemptId };
}

/** The terminal as it stands now; null when it was deactivated or moved since the payment. */
async function resolveForCard(tx: Repos, payment: PaymentRow, partner: PartnerRow, bin8: string): Promise<ResolvedCard | null> {
  try {
    return await resolveCardForTerminal(tx, payment.terminalId, partner, bin8);
  } catch (error) {
    if (isApiError(error) && error.code === "terminal_not_allowed") return null;
    throw error;
  }
}

/** A refusal that uses up one of the payment's card attempts (product 16). */
async function countAttempt(tx: Repos, deps: Deps, payment: PaymentRow, nowMs: number): Promise<void> {
  await tx.attempts.insert({ id: deps.ids.attemptId(), paymentCode: payment.code, status: "declined", counted: true, createdAtMs: nowMs });
  const counted = await tx.payments.countAttempt(payment.code, ATTEMPTABLE_STATUSES, nowMs);
  invariant(counted, "an initiated payment without 3D started can count an attempt");
}
