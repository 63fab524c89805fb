import type { Start3dResult } from "../../bank/gateway";
import type { Deps } from "../../deps";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { bankOf } from "./bank-of";
import { notifySubscribers } from "./events";
import { ATTEMPT_TRANSITIONS, ATTEMPTABLE_STATUSES } from "./machine";
import type { CardForm } from "./card-form";
import { decideStart, type StartGranted } from "./handoff-checks";
import { refuse, type HandoffResult } from "./handoff-outcomes";
import { callbackUrlOf } from "./handoff-paths";
import { failOver, type Failover, type FailoverResult } from "./handoff-router";
import type { PaymentRow } from "../../store/rows-money";

/**
 * docs/checkout.md, The handoff relay and the 3D step: from a checked card form to the bank's 3D form. Crash-safe in three
 * steps (DESIGN request flow 3): unit 1 runs the checks and records the attempt and "3D started";
 * then the bank is called outside any unit; unit 2 records what it answered. A crash between the
 * two leaves the ref used up and the attempt open, and the window expiry resolves the payment.
 *
 * Exported for the payment-link pages, whose card form continues here with a link payment's ref.
 */
export async function startHandoff(deps: Deps, input: CardForm, returnOrigin?: string): Promise<HandoffResult> {
  const decided = await deps.store.write((tx) => decideStart(tx, deps, input, deps.clock.nowMs()));
  if (decided.kind === "refused") return decided;
  let decision: StartGranted = decided;
  const { payment, attemptId } = decision;
  invariant(payment.returnUrl !== null, `payment ${payment.code} has no returnUrl`);
  for (;;) {
    // The bank of the connection the attempt was routed to in unit 1 (routing.ts).
    const bank = await bankOf(deps, decision.route.connectionId);
    const started = await bank.start3d({
      attemptId,
      amount: payment.amount,
      installment: payment.installment,
      card: input.card,
      callbackUrl: callbackUrlOf(deps.config.baseUrl, attemptId),
      returnOrigin: returnOrigin ?? new URL(payment.returnUrl).origin,
      buyerIp: input.buyerIp ?? null,
      nowMs: deps.clock.nowMs(),
    });
    // A router's member whose bank never had the attempt: the next member takes it (docs/routing.md).
    const failover: Failover | null = decision.failover;
    if (started.kind === "unavailable" && failover !== null) {
      const next: FailoverResult = await deps.store.write((tx) =>
        failOver(tx, deps, attemptId, payment.code, failover, deps.clock.nowMs()),
      );
      if (next.kind === "refused") return next.refusal;
      decision = { ...decision, route: next.route, failover: next.failover };
      continue;
    }
    // The page may post only where the bank's form goes: its action's origin. For most banks that
    // is the adapter's gate (acsOrigin); an MPI's enrollment answer names the issuer's own ACS.
    const gateOrigin = started.kind === "form" ? new URL(started.action).origin : bank.acsOrigin;
    const granted = decision;
    if (granted.route.route !== null) {
      deps.routeDecisions.record({ terminal: payment.terminalId, rule: granted.route.route.rule, member: granted.route.terminalId });
    }
    return deps.store.write((tx) => recordStart(tx, deps, granted, started, gateOrigin, deps.clock.nowMs()));
  }
}

/**
 * Unit 2. The form goes out only if the attempt is still `starting`: an expiry that ran while the
 * bank answered has closed it, and then the ref has expired. A decline (payment_declined) counts,
 * keeps the payment initiated and frees the ref for another card (docs/contract.md, Payment states).
 */
async function recordStart(
  tx: Repos,
  deps: Deps,
  granted: StartGranted,
  started: Start3dResult,
  gateOrigin: string,
  nowMs: number,
): Promise<HandoffResult> {
  const { payment, attemptId } = granted;
  if (started.kind === "form") {
    const t = ATTEMPT_TRANSITIONS.toAcs;
    if (!(await tx.attempts.move(attemptId, t.from, t.to, nowMs))) return refuse("payment_ref_expired");
    return { kind: "bank-form", action: started.action, fields: started.fields, gateOrigin };
  }
  const t = ATTEMPT_TRANSITIONS.decline;
  if (await tx.attempts.move(attemptId, t.from, t.to, nowMs, true)) await releaseAfterDecline(tx, deps, payment, nowMs);
  return refuse("payment_declined");
}

async function releaseAfterDecline(tx: Repos, deps: Deps, payment: PaymentRow, nowMs: number): Promise<void> {
  // The payment stays initiated (no transition row moves it); only the ref and the count change.
  if (await tx.payments.releaseThreeD(payment.code, ATTEMPTABLE_STATUSES, nowMs)) {
    await notifySubscribers(tx, deps, "attemptReleased", payment, nowMs);
  }
}
