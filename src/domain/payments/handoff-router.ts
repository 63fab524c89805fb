import type { Deps } from "../../deps";
import type { Repos } from "../../store/store";
import type { InstallmentOptionJson } from "../installments/types";
import { candidatesFor, examineFrom, refusalFor, toRecord, type Candidates, type Skip } from "../routing/choose";
import type { Router } from "../routing/router-terminal";
import { exceededConnectionLimit } from "./connection-limits";
import { refuse, type HandoffRefusal } from "./handoff-outcomes";
import { ATTEMPT_TRANSITIONS, ATTEMPTABLE_STATUSES } from "./machine";
import type { AttemptRoute } from "./routing";
import type { BinRow, PartnerRow } from "../../store/rows";
import type { PaymentRow } from "../../store/rows-money";

// The handoff's checks 5-10 on a router (docs/routing.md, The choice): the card's own eligibility
// first, then the router's candidates until one serves; the payment's limit usage moves to the
// serving member's connection in the same unit. The failover after a pre-redirect technical
// failure (handoff-start.ts) continues from the candidate that failed.

/** What a later failover needs to continue the same examination. */
export type Failover = {
  router: Router;
  card: BinRow | null;
  candidates: Candidates;
  index: number;
  skipped: Skip[];
  /** Where the payment counted before the attempt, so a refusal after a failover moves it back. */
  originConnectionId: string;
};

export type RouterRouted = {
  kind: "routed";
  attemptId: string;
  route: AttemptRoute;
  card: BinRow | null;
  option: InstallmentOptionJson;
  failover: Failover;
};

/** A refusal to record: `counted` ones insert a counted attempt with this route. */
export type RouterRefused = HandoffRefusal & { counted: boolean; attemptId: string; route: AttemptRoute };

export async function routeOnRouter(
  tx: Repos,
  deps: Deps,
  payment: PaymentRow,
  partner: PartnerRow,
  router: Router,
  bin8: string,
  nowMs: number,
): Promise<RouterRouted | RouterRefused> {
  const attemptId = deps.ids.attemptId();
  const card = (await tx.catalog.bin(bin8)) ?? null;
  const unrouted: AttemptRoute = { terminalId: router.id, connectionId: payment.connectionId, route: null };
  // Belongs to the card, not to a member (a card that cannot split a charge): before routing.
  if (payment.installment > 1 && !(card?.family === "credit" && card.installments)) {
    return { ...refuse("installment_not_allowed"), counted: true, attemptId, route: unrouted };
  }
  const facts = { bin8, card, installment: payment.installment, amount: payment.amount };
  const candidates = await candidatesFor(tx, router.routing, partner, facts, attemptId, payment.principal);
  const ctx = { partner, payment, card, routing: router.routing, nowMs };
  const result = await examineFrom(tx, deps, ctx, candidates, 0, []);
  const record = toRecord(candidates, result.skipped);
  if (result.kind === "none") {
    decided(deps, router, candidates, null, result.skipped, payment.code);
    const refusal = refusalFor(result.skipped[0]);
    return { ...refuse(refusal.code, refusal.shown), counted: refusal.counted, attemptId, route: { ...unrouted, route: record } };
  }
  // The payment's usage moves in decideStart, once the subscribers let the attempt start.
  decided(deps, router, candidates, result.member.terminal.id, result.skipped, payment.code);
  return {
    kind: "routed",
    attemptId,
    route: { terminalId: result.member.terminal.id, connectionId: result.member.connection.id, route: record },
    card,
    option: result.option,
    failover: { router, card, candidates, index: result.index, skipped: result.skipped, originConnectionId: payment.connectionId },
  };
}

/** The payment's limit usage moves onto the serving member's connection (docs/routing.md, Limits). */
export async function serveOn(tx: Repos, paymentCode: string, connectionId: string, nowMs: number): Promise<void> {
  await tx.payments.moveConnection(paymentCode, connectionId, nowMs);
}

/**
 * Logs each choice; the metric counts a refusal here, and a served attempt once its bank has it
 * (handoff-start.ts), so a member dropped by a failover is not counted as serving.
 */
function decided(deps: Deps, router: Router, c: Candidates, member: string | null, skipped: readonly Skip[], paymentCode: string): void {
  if (member === null) deps.routeDecisions.record({ terminal: router.id, rule: c.rule, member });
  const fields = { paymentCode, terminalId: router.id, rule: c.rule, order: c.order, member, skipped: toRecord(c, skipped).skipped };
  if (member === null) deps.log.warn("router: no member can serve the attempt", fields);
  else deps.log.info("router: member chosen", fields);
}

export type FailoverResult =
  | { kind: "served"; route: AttemptRoute; option: InstallmentOptionJson; failover: Failover }
  | { kind: "refused"; refusal: HandoffRefusal };

/**
 * A pre-redirect bank call of the serving member failed technically: that candidate is dropped
 * as `unavailable` and the next ones are examined within the same attempt. The attempt must still
 * be `starting` (an expiry may have closed it while the bank was asked). With no survivor the
 * attempt ends uncounted and the ref may be used again, unless the first candidate's reason is one
 * that counts.
 */
export async function failOver(
  tx: Repos,
  deps: Deps,
  attemptId: string,
  paymentCode: string,
  f: Failover,
  nowMs: number,
): Promise<FailoverResult> {
  await tx.payments.lock(paymentCode);
  const attempt = await tx.attempts.get(attemptId);
  const payment = await tx.payments.get(paymentCode);
  const partner = payment && (await tx.partners.get(payment.partnerId));
  if (attempt?.status !== "starting" || !payment || !partner) return { kind: "refused", refusal: refuse("payment_ref_expired") };
  const failed = { terminalId: f.candidates.list[f.index] as string, reason: "unavailable" as const };
  const ctx = { partner, payment, card: f.card, routing: f.router.routing, nowMs };
  const result = await examineFrom(tx, deps, ctx, f.candidates, f.index + 1, [...f.skipped, failed]);
  const record = toRecord(f.candidates, result.skipped);
  if (result.kind === "none") {
    decided(deps, f.router, f.candidates, null, result.skipped, paymentCode);
    await moveBack(tx, payment, f.originConnectionId, nowMs);
    return { kind: "refused", refusal: await endUnreachable(tx, attemptId, payment, refusalFor(result.skipped[0]), record, nowMs) };
  }
  const route = { terminalId: result.member.terminal.id, connectionId: result.member.connection.id, route: record };
  await tx.attempts.reroute(attemptId, route, nowMs);
  await serveOn(tx, payment.code, result.member.connection.id, nowMs);
  await tx.payments.repriceThreeD(
    payment.code,
    ATTEMPTABLE_STATUSES,
    { appliedRateBps: result.option.rateBps, appliedFixedFee: result.option.fixedFee },
    nowMs,
  );
  decided(deps, f.router, f.candidates, result.member.terminal.id, result.skipped, paymentCode);
  return { kind: "served", route, option: result.option, failover: { ...f, index: result.index, skipped: result.skipped } };
}

/**
 * Nothing stays half-moved: the payment counts again where it counted before the attempt, when
 * that connection still has room for it (its room was free while the attempt held another's);
 * else it stays where the last candidate's check found room.
 */
async function moveBack(tx: Repos, payment: PaymentRow, originId: string, nowMs: number): Promise<void> {
  if (payment.connectionId === originId) return;
  const origin = await tx.catalog.connection(originId);
  if (origin && (await exceededConnectionLimit(tx, origin, payment.amount, nowMs, payment.code)) === null) {
    await tx.payments.moveConnection(payment.code, originId, nowMs);
  }
}

async function endUnreachable(
  tx: Repos,
  attemptId: string,
  payment: PaymentRow,
  refusal: ReturnType<typeof refusalFor>,
  record: ReturnType<typeof toRecord>,
  nowMs: number,
): Promise<HandoffRefusal> {
  await tx.attempts.reroute(attemptId, { terminalId: payment.terminalId, connectionId: payment.connectionId, route: record }, nowMs);
  if (refusal.counted) {
    const t = ATTEMPT_TRANSITIONS.decline;
    await tx.attempts.move(attemptId, t.from, t.to, nowMs, true);
    await tx.payments.releaseThreeD(payment.code, ATTEMPTABLE_STATUSES, nowMs);
  } else {
    const t = ATTEMPT_TRANSITIONS.unreachable;
    await tx.attempts.move(attemptId, t.from, t.to, nowMs);
    await tx.payments.reopenThreeD(payment.code, ATTEMPTABLE_STATUSES, nowMs);
  }
  return refuse(refusal.code, refusal.shown);
}
