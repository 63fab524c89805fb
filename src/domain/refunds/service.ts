import { captureTerminalOf } from "../payments/bank-of";
import type { Deps } from "../../deps";
import { fail } from "../../errors";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { assertAcceptingPayments } from "../acceptance/service";
import { istanbulDate } from "../checks/istanbul-time";
import { recordRefundResult, sendToBank } from "./record";
import { decideRefund, type RefundEndpoint } from "./rules";
import type { RefundBody } from "./schema";
import type { PartnerRow } from "../../store/rows";
import type { PaymentRow, RefundRow } from "../../store/rows-money";

// docs/contract.md, Refunds / The refund record. A refund takes two units of work around one bank
// call: the first checks every rule and inserts the refund `pending`, which reserves its amount
// (remaining = amount - approved - pending) and, by the partial unique index, blocks any other
// refund of the payment; the second records the bank's answer. Simultaneous requests therefore
// never refund more than was captured.

/** docs/contract.md, Refunds: today's Istanbul date is the capture's, and no day end has settled it. */
export const isSameProcessingDay = (payment: PaymentRow, nowMs: number): boolean =>
  payment.settledDay === null && payment.capturedAtMs !== null && istanbulDate(payment.capturedAtMs) === istanbulDate(nowMs);

type Reserved = { refund: RefundRow; captureReference: string };

/** The three POST endpoints: 201 with the refund as the bank left it (approved, declined or pending). */
export async function createRefund(
  deps: Deps,
  partner: PartnerRow,
  paymentCode: string,
  endpoint: RefundEndpoint,
  body: RefundBody,
): Promise<RefundRow> {
  const reserved = await deps.store.write((tx) => reserveRefund(tx, deps, partner, paymentCode, endpoint, body, deps.clock.nowMs()));
  const result = await sendToBank(deps, reserved.refund, reserved.captureReference);
  return deps.store.write((tx) => recordRefundResult(tx, deps, reserved.refund.id, result, deps.clock.nowMs()));
}

/** The first unit: steps 2-9 of the precedence in rules.ts, then the pending row. */
async function reserveRefund(
  tx: Repos,
  deps: Deps,
  partner: PartnerRow,
  paymentCode: string,
  endpoint: RefundEndpoint,
  body: RefundBody,
  nowMs: number,
): Promise<Reserved> {
  await assertAcceptingPayments(tx, partner, nowMs);
  const owned = await tx.payments.getOwned(partner.id, paymentCode);
  if (!owned) fail("payment_not_found");
  // docs/postgresql.md: concurrent refunds of one payment are checked against its total one at a time.
  await tx.payments.lock(owned.code);
  const payment = (await tx.payments.get(owned.code)) ?? owned;
  if (await tx.refunds.byPartnerCode(partner.id, body.partnerRefundCode)) fail("refund_in_progress", "partnerRefundCode: already used");
  // The member that captured decides direct collection (docs/routing.md); a plain terminal is its own.
  const terminal = await tx.catalog.terminal(await captureTerminalOf(tx, payment));
  invariant(terminal, `payment ${payment.code} refers to a missing terminal`);
  const totals = await tx.refunds.totals(payment.code);
  const decision = decideRefund(endpoint, {
    status: payment.status,
    count: totals.count,
    pending: totals.pending,
    remaining: payment.amount - payment.refundedAmount - totals.pending,
    requested: body.amount ?? null,
    sameDay: isSameProcessingDay(payment, nowMs),
    approvedCredit: totals.approvedCredits > 0,
    directCollection: terminal.directCollection,
  });
  invariant(payment.bankReference !== null, `captured payment ${payment.code} has no bank reference`);
  const id = deps.ids.refundId();
  await tx.refunds.insertPending({
    id,
    paymentCode: payment.code,
    partnerId: partner.id,
    partnerRefundCode: body.partnerRefundCode,
    method: decision.method,
    amount: decision.amount,
    createdAtMs: nowMs,
  });
  const refund = await tx.refunds.get(id);
  invariant(refund, "a refund inserted in this unit can be read back");
  return { refund, captureReference: payment.bankReference };
}

/**
 * docs/contract.md, The refund record: the caller's refund of that payment. Unknown refunds, another payment's and
 * another partner's all read as 404 `refund_not_found` (the only code 4.11 names), as does an
 * unknown payment code on this path.
 */
export async function refundOf(deps: Deps, partnerId: string, paymentCode: string, refundId: string): Promise<RefundRow> {
  const refund = await deps.store.q.refunds.get(refundId);
  if (!refund || refund.partnerId !== partnerId || refund.paymentCode !== paymentCode) fail("refund_not_found");
  return refund;
}
