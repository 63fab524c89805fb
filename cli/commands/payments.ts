import { defineCommand } from "citty";
import { toIso } from "../../src/iso-time";
import { PAYMENT_STATUSES } from "../../src/domain/payments/machine";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, table, withStore } from "../context";
import { defineListCommand } from "../list-command";
import { details, isoOrNull, istanbulOrDash, section, tryOrDash } from "../format";
import { toRefundJson, toRefundTableRow } from "./refunds";
import type { AttemptRow, PaymentRow, PaymentSummaryRow } from "../../src/store/rows-money";

// `kasa payments list|show` (docs/operating.md, The operator CLI): read-only. The single-use `paymentRef` is a handoff
// credential and is never printed; card data beyond the masked PAN is never stored at all.

/** A payment in listings (also inside `links show` and `payouts show`). */
export function toPaymentSummaryJson(p: PaymentSummaryRow) {
  return {
    paymentCode: p.code,
    partnerId: p.partnerId,
    terminalId: p.terminalId,
    partnerTxCode: p.partnerTxCode,
    channel: p.channel,
    paymentLinkId: p.linkId,
    status: p.status,
    amount: p.amount,
    installmentCount: p.installment,
    maskedPan: p.maskedPan,
    commissionAmount: p.commissionAmount,
    netToPartner: p.netToPartner,
    expectedValueDate: p.expectedValueDate,
    refundedAmount: p.refundedAmount,
    capturedAt: isoOrNull(p.capturedAtMs),
    createdAt: toIso(p.createdAtMs),
  };
}

export const toPaymentTableRow = (p: PaymentSummaryRow) => ({
  payment: p.code,
  partner: p.partnerId,
  partnerTxCode: p.partnerTxCode,
  status: p.status,
  amount: tryOrDash(p.amount),
  inst: p.installment,
  card: p.maskedPan,
  net: tryOrDash(p.netToPartner),
  created: istanbulOrDash(p.createdAtMs),
});

/** The whole record for `payments show`: docs/contract.md#the-payment-record's fields and the operator's extras. */
function toPaymentDetailJson(p: PaymentRow) {
  return {
    paymentCode: p.code,
    partnerId: p.partnerId,
    terminalId: p.terminalId,
    connectionId: p.connectionId,
    partnerTxCode: p.partnerTxCode,
    channel: p.channel,
    paymentLinkId: p.linkId,
    status: p.status,
    amount: p.amount,
    principal: p.principal,
    currency: p.currency,
    installmentCount: p.installment,
    description: p.description,
    returnUrl: p.returnUrl,
    maskedPan: p.maskedPan,
    cardBrand: p.cardBrand,
    cardFamily: p.cardFamily,
    cardBank: p.cardBank,
    appliedRateBps: p.appliedRateBps,
    appliedFixedFee: p.appliedFixedFee,
    commissionAmount: p.commissionAmount,
    netToPartner: p.netToPartner,
    expectedValueDate: p.expectedValueDate,
    bankReference: p.bankReference,
    authCode: p.authCode,
    attemptsCounted: p.attemptsCounted,
    refundedAmount: p.refundedAmount,
    settledDay: p.settledDay,
    payoutBatchId: p.payoutBatchId,
    capturedAt: isoOrNull(p.capturedAtMs),
    expiresAt: toIso(p.expiresAtMs),
    createdAt: toIso(p.createdAtMs),
    updatedAt: toIso(p.updatedAtMs),
  };
}

/**
 * One card attempt: the member that served it and its connection; `route` how a router chose it
 * (docs/routing.md, Reading a decision), null on a plain terminal.
 */
const toAttemptJson = (a: AttemptRow) => ({
  id: a.id,
  status: a.status,
  counted: a.counted,
  terminalId: a.terminalId,
  connectionId: a.connectionId,
  route: a.route,
  createdAt: toIso(a.createdAtMs),
});

const toAttemptTableRow = (a: AttemptRow) => ({
  attempt: a.id,
  status: a.status,
  terminal: a.terminalId,
  connection: a.connectionId,
  rule: a.route?.rule ?? "-",
  skipped: a.route ? a.route.skipped.map((s) => `${s.terminalId}:${s.reason}`).join(" ") || "-" : "-",
  created: istanbulOrDash(a.createdAtMs),
});

function describePayment(p: PaymentRow, attemptsTable: string, refundsTable: string): string {
  return [
    details([
      ["payment", p.code],
      ["partner", p.partnerId],
      ["partner tx code", p.partnerTxCode],
      ["channel", p.channel],
      ["link", p.linkId],
      ["status", p.status],
      ["amount", tryOrDash(p.amount)],
      ["installments", p.installment],
      ["terminal", p.terminalId],
      ["connection", p.connectionId],
      ["card", [p.maskedPan, p.cardBrand, p.cardFamily, p.cardBank].filter(Boolean).join(" ")],
      ["rate bps", p.appliedRateBps],
      ["fixed fee", p.appliedFixedFee === null ? null : tryOrDash(p.appliedFixedFee)],
      ["commission", p.commissionAmount === null ? null : tryOrDash(p.commissionAmount)],
      ["net to partner", p.netToPartner === null ? null : tryOrDash(p.netToPartner)],
      ["value date", p.expectedValueDate],
      ["refunded", tryOrDash(p.refundedAmount)],
      ["settled day", p.settledDay],
      ["payout batch", p.payoutBatchId],
      ["bank reference", p.bankReference],
      ["auth code", p.authCode],
      ["counted attempts", p.attemptsCounted],
      ["created", istanbulOrDash(p.createdAtMs)],
      ["3D window ends", istanbulOrDash(p.expiresAtMs)],
      ["captured", istanbulOrDash(p.capturedAtMs)],
    ]),
    section("attempts", attemptsTable),
    section("refunds", refundsTable),
  ].join("\n");
}

const list = defineListCommand({
  plural: "payments",
  order: "newest first",
  example: "kasa payments list --partner ptn_demo --status captured --limit 50",
  statuses: PAYMENT_STATUSES,
  query: async (store, filter) => await store.q.operator.payments(filter),
  toJson: toPaymentSummaryJson,
  toTableRow: toPaymentTableRow,
});

const show = defineCommand({
  meta: { name: "show", description: "Show one payment with its refunds.\n\nExample: kasa payments show pay_01jd0000000000000000" },
  args: { code: { type: "positional", description: "payment code (pay_…)", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const p = await store.q.payments.get(requireArg(args.code, "code"));
      if (!p) throw new CliError(`unknown payment ${args.code}`);
      const refunds = await store.q.operator.refundsOfPayment(p.code);
      const attempts = await store.q.attempts.byPayment(p.code);
      output(args, { ...toPaymentDetailJson(p), attempts: attempts.map(toAttemptJson), refunds: refunds.map(toRefundJson) }, () =>
        describePayment(p, table(attempts.map(toAttemptTableRow)), table(refunds.map(toRefundTableRow))),
      );
    }),
});

export const paymentsCommand = defineCommand({
  meta: { name: "payments", description: "Inspect payments.\n\nExample: kasa payments list --status captured" },
  subCommands: { list, show },
});
