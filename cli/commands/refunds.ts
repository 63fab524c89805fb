import { defineCommand } from "citty";
import { toRefundJson as toApiRefundJson } from "../../src/domain/refunds/view";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, withStore } from "../context";
import { details, istanbulOrDash, tryOrDash } from "../format";
import type { RefundRow } from "../../src/store/rows-money";

// `kasa refunds show ID` (docs/operating.md, The operator CLI): docs/contract.md#the-refund-record's record plus what only the operator sees
// (payment, partner, the partner's own code, the payout batch that deducted a credit refund).

export function toRefundJson(r: RefundRow) {
  // The API's record (docs/contract.md, The refund record) with the operator's fields, in the order `kasa` has always printed.
  const { refundId, createdAt, updatedAt, ...rest } = toApiRefundJson(r);
  return {
    refundId,
    paymentCode: r.paymentCode,
    partnerId: r.partnerId,
    partnerRefundCode: r.partnerRefundCode,
    ...rest,
    payoutBatchId: r.payoutBatchId,
    createdAt,
    updatedAt,
  };
}

/** One line per refund, for tables inside `payments show` and `payouts show`. */
export const toRefundTableRow = (r: RefundRow) => ({
  refund: r.id,
  payment: r.paymentCode,
  method: r.method,
  status: r.status,
  amount: tryOrDash(r.amount),
  created: istanbulOrDash(r.createdAtMs),
});

function describeRefund(r: RefundRow): string {
  return details([
    ["refund", r.id],
    ["payment", r.paymentCode],
    ["partner", r.partnerId],
    ["partner refund code", r.partnerRefundCode],
    ["method", r.method],
    ["status", r.status],
    ["amount", tryOrDash(r.amount)],
    ["bank return code", r.procReturnCode],
    ["auth code", r.authCode],
    ["bank message", r.errMsg],
    ["bank reference", r.bankReference],
    ["payout batch", r.payoutBatchId],
    ["created", istanbulOrDash(r.createdAtMs)],
    ["updated", istanbulOrDash(r.updatedAtMs)],
  ]);
}

const show = defineCommand({
  meta: {
    name: "show",
    description: "Show one refund (method, status, bank result).\n\nExample: kasa refunds show rfd_01jd0000000000000000",
  },
  args: { id: { type: "positional", description: "refund id (rfd_…)", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const r = await store.q.operator.refund(requireArg(args.id, "id"));
      if (!r) throw new CliError(`unknown refund ${args.id}`);
      output(args, toRefundJson(r), () => describeRefund(r));
    }),
});

export const refundsCommand = defineCommand({
  meta: { name: "refunds", description: "Inspect refunds.\n\nExample: kasa refunds show rfd_01jd0000000000000000" },
  subCommands: { show },
});
