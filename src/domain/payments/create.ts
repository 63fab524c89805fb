import type { Deps } from "../../deps";
import { fail } from "../../errors";
import { THREE_D_WINDOW_EXTENDED_MS, THREE_D_WINDOW_STANDARD_MS } from "../../limits";
import { ANY_LANE, inLane, type Repos } from "../../store/store";
import { assertAcceptingPayments } from "../acceptance/service";
import { checkRedirectUrl } from "../checks/redirect-url";
import { ownedTerminal, resolveTerminal } from "../installments/service";
import { activeMembers, isRouter, placeAtCreate, unionOfCounts, type Router } from "../routing/router-terminal";
import { exceededConnectionLimit, insertedWithinReservation } from "./connection-limits";
import { PAYMENT_EXPIRY_TIMER } from "./expiry";
import { isHoldingStatus } from "./machine";
import type { CreatePaymentBody } from "./schema";
import { expireIfDue } from "./transitions";
import type { PartnerRow, TerminalRow } from "../../store/rows";
import type { NewPayment, PaymentChannel, PaymentRow } from "../../store/rows-money";

/** docs/contract.md, What kasa does: currency is always TRY and not a request field. */
export const CURRENCY = "TRY";

export type CreateOutcome = { replay: boolean; payment: PaymentRow };

/** A create request after its shape checks, installment defaulted and returnUrl normalised. */
type PaymentRequest = {
  partnerTxCode: string;
  terminalId: string;
  amount: number;
  installment: number;
  description: string | null;
  returnUrl: string;
};

/**
 * docs/contract.md, Create a payment. The idempotency check and the insert run in ONE unit of work, so N concurrent
 * creates with one code see each other in order: exactly one inserts, the rest replay or get 409
 * (the partial unique index `payments_active_tx_code` is the backstop).
 */
export async function createApiPayment(deps: Deps, partner: PartnerRow, body: CreatePaymentBody): Promise<CreateOutcome> {
  const returnUrl = checkRedirectUrl(body.returnUrl, partner.allowedRedirectHosts);
  if (!returnUrl.ok) fail("validation_error", `returnUrl: ${returnUrl.reason}`);
  const request: PaymentRequest = {
    partnerTxCode: body.partnerTxCode,
    terminalId: body.terminalId,
    amount: body.amount,
    installment: body.installment ?? 1,
    description: body.description ?? null,
    returnUrl: returnUrl.url,
  };
  return deps.store.write(inLane(ANY_LANE, (tx) => createInUnit(tx, deps, partner, request, deps.clock.nowMs(), "api")));
}

export type PanelPaymentInput = Omit<PaymentRequest, "returnUrl">;

/**
 * docs/panel.md: a payment a panel user types in. The same rules as 4.5 in the same order, channel
 * `panel` (boundary 2: its code replays only from the panel; the API's 409 and the panel's 409
 * for an API code both come from `replayOf`). The bank's answer comes back to kasa's own panel,
 * so the partner's redirect hosts do not apply to `returnUrl`.
 */
export async function createPanelPayment(
  deps: Deps,
  partner: PartnerRow,
  input: PanelPaymentInput,
  returnUrl: string,
): Promise<CreateOutcome> {
  return deps.store.write(inLane(ANY_LANE, (tx) => createInUnit(tx, deps, partner, { ...input, returnUrl }, deps.clock.nowMs(), "panel")));
}

/**
 * The business rules of 4.5 in their fixed precedence (after the 400s of the body and returnUrl):
 * 1. terminal owned and active, else 403 terminal_not_allowed;
 * 2. partner accepting payments, else 403 partner_not_active;
 * 3. an active payment holding the code: 200 replay when the request is the same, else 409
 *    duplicate_partner_tx_code. A replay comes before the 422s on purpose: the existing payment
 *    already uses the connection's limits, and a retry must not be refused because of itself;
 * 4. the account's per-transaction min/max, else 422 amount_limit_exceeded;
 * 5. the count in the terminal's effective set, else 422 installment_not_allowed (7.4 reason 2);
 * 6. the connection limits (per tx, daily, weekly, monthly, time window), else 422 pos_*.
 * Any refusal throws, which rolls the unit back: nothing is created and the code stays free.
 */
async function createInUnit(
  tx: Repos,
  deps: Deps,
  partner: PartnerRow,
  r: PaymentRequest,
  nowMs: number,
  channel: "api" | "panel",
): Promise<CreateOutcome> {
  const terminal = await ownedTerminal(tx, r.terminalId, partner);
  const target = isRouter(terminal) ? null : await resolveTerminal(tx, terminal.id, partner);
  const amountAllowed =
    (partner.amountMin === null || r.amount >= partner.amountMin) && (partner.amountMax === null || r.amount <= partner.amountMax);
  // On a plain terminal, a create that passes the rules known without reading is inserted with the
  // reads (one round trip on PostgreSQL, docs/postgresql.md "A create in one round trip"): admitted
  // within this runner's reservation of the connection's room, unless the code is held. A refusal
  // below rolls it back with the unit; the rules keep their order.
  const optimistic =
    target !== null && amountAllowed && target.pricing.effectiveInstallments.includes(r.installment)
      ? paymentRow(deps, terminal, target.connection.id, { ...r, channel, linkId: null, principal: r.amount }, nowMs)
      : null;
  const [, held, inserted] = await Promise.all([
    assertAcceptingPayments(tx, partner, nowMs),
    tx.payments.holdingTxCode(partner.id, r.partnerTxCode),
    optimistic !== null && target !== null ? insertedWithinReservation(tx, target.connection, optimistic) : null,
  ]);
  // Inserted: no active payment held the code when the insert ran (the unique index backs it).
  if (inserted) return { replay: false, payment: scheduled(deps, inserted) };
  const holder = held && (await stillHolding(tx, deps, held, nowMs));
  if (holder) return { replay: true, payment: replayOf(holder, r, channel) };
  if (!amountAllowed) fail("amount_limit_exceeded", "amount: outside the account's per-transaction limits");
  // A router (docs/routing.md, Before the card): its members' counts, and the first member with room.
  const members = target === null ? await activeMembers(tx, terminal as Router, partner) : [];
  const counts = target === null ? unionOfCounts(members) : target.pricing.effectiveInstallments;
  if (!counts.includes(r.installment)) {
    fail("installment_not_allowed", "installment: not in the terminal's installment set");
  }
  let connectionId: string;
  if (target === null) connectionId = await placeAtCreate(tx, members, r.amount, nowMs, true);
  else {
    const limit = await exceededConnectionLimit(tx, target.connection, r.amount, nowMs, null);
    if (limit !== null) fail(limit);
    connectionId = target.connection.id;
  }
  // The row made for the insert with the reads, when there was one: the same terminal, connection and instant.
  const row = optimistic ?? paymentRow(deps, terminal, connectionId, { ...r, channel, linkId: null, principal: r.amount }, nowMs);
  return { replay: false, payment: scheduled(deps, await tx.payments.insert(row)) };
}

/**
 * The active payment holding the code, if any. A payment whose window has passed is expired first
 * (the timer may not have run yet), so at `expiresAt` the code is already free (docs/decisions.md, Readings of the contract).
 */
async function holdingPayment(tx: Repos, deps: Deps, partnerId: string, partnerTxCode: string, nowMs: number): Promise<PaymentRow | null> {
  const holder = await tx.payments.holdingTxCode(partnerId, partnerTxCode);
  return holder ? await stillHolding(tx, deps, holder, nowMs) : null;
}

async function stillHolding(tx: Repos, deps: Deps, holder: PaymentRow, nowMs: number): Promise<PaymentRow | null> {
  return isHoldingStatus((await expireIfDue(tx, deps, holder, nowMs)).status) ? holder : null;
}

/**
 * docs/contract.md, Create a payment "same request": partnerId (the lookup's scope), terminalId, amount, installment and
 * currency equal, and made through the same interface (boundary 2: a panel or link payment is
 * never replayed by the API, and a `PL-` code of an active link payment is 409, boundary 3).
 * returnUrl and description are left out of the comparison.
 */
function replayOf(holder: PaymentRow, r: PaymentRequest, channel: "api" | "panel"): PaymentRow {
  const same =
    holder.channel === channel &&
    holder.terminalId === r.terminalId &&
    holder.amount === r.amount &&
    holder.installment === r.installment &&
    holder.currency === CURRENCY;
  if (!same) fail("duplicate_partner_tx_code", "partnerTxCode: already used by a different request");
  return holder;
}

export type LinkPaymentInput = {
  partner: PartnerRow;
  linkId: string;
  terminalId: string;
  /** n of `PL-<linkId>-<n>`: from `tx.links.nextAttemptSeq(linkId)`. */
  n: number;
  /** The charged amount: the chosen option's totalAmount. */
  amount: number;
  /** The link's base amount: the commission base on net terminals (docs/contract.md, Payments). */
  principal: number;
  installment: number;
  description: string | null;
  /** Where the callback's 303 goes (with ?paymentCode=…&status=…): the link's own result page. */
  returnUrl: string;
};

/**
 * docs/contract.md, Payments; docs/checkout.md, Payment link pages: a payment made through a link, inside the link page's unit of work. Channel
 * `link`, partnerTxCode `PL-<linkId>-<n>`. The caller has checked the link (state, allowed
 * counts, the option); this checks the terminal (403) and the code. Connection limits are not
 * checked here: for link payments they are a 3D-start refusal (docs/contract.md, Connection limits), generic page.
 */
export async function createLinkPayment(tx: Repos, deps: Deps, input: LinkPaymentInput, nowMs: number): Promise<PaymentRow> {
  const terminal = await ownedTerminal(tx, input.terminalId, input.partner);
  // A router's link payment counts against its first active member with room, else its first
  // active member: limits refuse a link payment at 3D start, never here.
  const connectionId = isRouter(terminal)
    ? await placeAtCreate(tx, await activeMembers(tx, terminal, input.partner), input.amount, nowMs, false)
    : terminal.connectionId;
  const partnerTxCode = `PL-${input.linkId}-${input.n}`;
  if (await holdingPayment(tx, deps, input.partner.id, partnerTxCode, nowMs)) {
    fail("duplicate_partner_tx_code", "partnerTxCode: already used by an active payment");
  }
  const request = {
    partnerTxCode,
    terminalId: input.terminalId,
    amount: input.amount,
    installment: input.installment,
    description: input.description,
    returnUrl: input.returnUrl,
    channel: "link" as const,
    linkId: input.linkId,
    principal: input.principal,
  };
  return await insertPayment(tx, deps, terminal, connectionId, request, nowMs);
}

type Insertable = PaymentRequest & { channel: PaymentChannel; linkId: string | null; principal: number };

/** docs/contract.md#payment-states first row: initiated, with a fresh paymentRef; the 3D window timer starts now. */
async function insertPayment(
  tx: Repos,
  deps: Deps,
  terminal: TerminalRow,
  connectionId: string,
  r: Insertable,
  nowMs: number,
): Promise<PaymentRow> {
  return scheduled(deps, await tx.payments.insert(paymentRow(deps, terminal, connectionId, r, nowMs)));
}

function paymentRow(deps: Deps, terminal: TerminalRow, connectionId: string, r: Insertable, nowMs: number): NewPayment {
  return {
    code: deps.ids.paymentCode(),
    partnerId: terminal.partnerId,
    terminalId: terminal.id,
    connectionId,
    partnerTxCode: r.partnerTxCode,
    channel: r.channel,
    linkId: r.linkId,
    amount: r.amount,
    principal: r.principal,
    currency: CURRENCY,
    installment: r.installment,
    description: r.description,
    returnUrl: r.returnUrl,
    paymentRef: deps.ids.paymentRef(),
    expiresAtMs: nowMs + threeDWindowMs(terminal),
    createdAtMs: nowMs,
  };
}

/** A new payment's 3D window starts now: its expiry timer. */
function scheduled(deps: Deps, payment: PaymentRow): PaymentRow {
  deps.timers.schedule(PAYMENT_EXPIRY_TIMER, payment.code, payment.expiresAtMs);
  return payment;
}

/** docs/contract.md, Payment states / Limits: 30 minutes, 135 on terminals of the `extended` infrastructure. */
export function threeDWindowMs(terminal: TerminalRow): number {
  return terminal.infrastructure === "extended" ? THREE_D_WINDOW_EXTENDED_MS : THREE_D_WINDOW_STANDARD_MS;
}
