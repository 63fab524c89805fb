import { defineCommand } from "citty";
import { toIso } from "../../src/iso-time";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, table, withStore } from "../context";
import { defineListCommand } from "../list-command";
import { details, istanbulOrDash, section, tryOrDash } from "../format";
import { payoutMarkCommands } from "./payout-marks";
import { toPaymentSummaryJson, toPaymentTableRow } from "./payments";
import { toRefundJson, toRefundTableRow } from "./refunds";
import type { PayoutBatchRow } from "../../src/store/rows-money";

// `kasa payouts list|show` (docs/operating.md, The operator CLI; docs/contract.md, Refunds): read-only. interface.md shows no payout
// record, so this is the operator's shape: the batch, the captures it pays and the credit
// refunds it deducts.

const PAYOUT_STATUSES = ["pending", "paid_out", "failed"];

export function toPayoutJson(b: PayoutBatchRow) {
  return {
    payoutBatchId: b.id,
    partnerId: b.partnerId,
    day: b.day,
    amount: b.amount,
    status: b.status,
    createdAt: toIso(b.createdAtMs),
    updatedAt: toIso(b.updatedAtMs),
    reference: b.reference,
  };
}

const toPayoutTableRow = (b: PayoutBatchRow) => ({
  batch: b.id,
  partner: b.partnerId,
  day: b.day,
  amount: tryOrDash(b.amount),
  status: b.status,
  updated: istanbulOrDash(b.updatedAtMs),
});

const list = defineListCommand({
  plural: "payout batches",
  order: "latest day first",
  example: "kasa payouts list --partner ptn_demo --status failed",
  statuses: PAYOUT_STATUSES,
  query: async (store, filter) => await store.q.operator.payoutBatches(filter),
  toJson: toPayoutJson,
  toTableRow: toPayoutTableRow,
});

const show = defineCommand({
  meta: {
    name: "show",
    description: "Show one payout batch with the payments and refunds in it.\n\nExample: kasa payouts show pob_01jd0000000000000000",
  },
  args: { id: { type: "positional", description: "payout batch id (pob_…)", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const b = await store.q.operator.payoutBatch(requireArg(args.id, "id"));
      if (!b) throw new CliError(`unknown payout batch ${args.id}`);
      const payments = await store.q.operator.paymentsOfBatch(b.id);
      const refunds = await store.q.operator.refundsOfBatch(b.id);
      const json = { ...toPayoutJson(b), payments: payments.map(toPaymentSummaryJson), refunds: refunds.map(toRefundJson) };
      output(args, json, () =>
        [
          details([
            ["batch", b.id],
            ["partner", b.partnerId],
            ["day", b.day],
            ["amount", tryOrDash(b.amount)],
            ["status", b.status],
            ["created", istanbulOrDash(b.createdAtMs)],
            ["updated", istanbulOrDash(b.updatedAtMs)],
          ]),
          section("payments", table(payments.map(toPaymentTableRow))),
          section("refunds deducted", table(refunds.map(toRefundTableRow))),
        ].join("\n"),
      );
    }),
});

export const payoutsCommand = defineCommand({
  meta: {
    name: "payouts",
    description:
      "Payout batches: list, show, export and mark the ones an operator transfers.\n\nExample: kasa payouts list --status failed",
  },
  subCommands: { list, show, ...payoutMarkCommands },
});
