import { defineCommand } from "citty";
import { markPayoutBatch, payoutsToTransfer, type PayoutTransfer } from "../../src/domain/settlement/payout-marks";
import type { PayoutMark } from "../../src/domain/settlement/payouts";
import { PAYOUT_REFERENCE_MAX_CHARS } from "../../src/limits";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, withStore } from "../context";

// `kasa payouts export|mark-paid|mark-failed`: the payouts an operator transfers by hand
// (src/domain/settlement/payout-marks.ts holds the rules); these commands read flags, call, print.

/** One CSV cell: quoted when needed, and text a spreadsheet would run as a formula is defused. */
export function csvCell(value: string | number | null): string {
  let s = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const CSV_COLUMNS: ReadonlyArray<keyof PayoutTransfer> = [
  "payoutBatchId",
  "partnerId",
  "partnerName",
  "payoutAccount",
  "day",
  "amountKurus",
  "amountTry",
];

const exportCommand = defineCommand({
  meta: {
    name: "export",
    description:
      "List the pending payout batches an operator must transfer (real-bank connections), as CSV or JSON.\n\nExample: kasa payouts export --format csv > payouts.csv",
  },
  args: { format: { type: "string", description: "csv (default) or json", valueHint: "FORMAT" }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const format = args.format ?? (args.json ? "json" : "csv");
      if (format !== "csv" && format !== "json") throw new CliError(`--format must be csv or json, not ${format}`, 2);
      const rows = await payoutsToTransfer(store.q);
      if (format === "json") {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const lines = [CSV_COLUMNS.join(","), ...rows.map((r) => CSV_COLUMNS.map((c) => csvCell(r[c])).join(","))];
      process.stdout.write(`${lines.join("\r\n")}\r\n`);
    }),
});

function markCommand(status: PayoutMark["status"]) {
  const name = status === "paid" ? "mark-paid" : "mark-failed";
  return defineCommand({
    meta: {
      name,
      description:
        status === "paid"
          ? "Record that a pending batch was transferred (sends payout.paid_out).\n\nExample: kasa payouts mark-paid pob_01jd0000000000000000 --reference EFT-2026-1124-001"
          : "Record that a pending batch could not be transferred (sends payout.failed; its items are due again at the next day end).\n\nExample: kasa payouts mark-failed pob_01jd0000000000000000 --reference IBAN-closed",
    },
    args: {
      batch: { type: "positional", description: "payout batch id (pob_…)", required: true },
      reference: { type: "string", description: "the transfer's (or the failure's) reference, kept on the batch", valueHint: "R" },
      ...commonArgs,
    },
    run: ({ args }) =>
      withStore(args, async (ctx) => {
        const id = requireArg(args.batch, "batch");
        const reference = typeof args.reference === "string" && args.reference !== "" ? args.reference : null;
        const outcome = await markPayoutBatch(ctx, id, { status, reference });
        if (!outcome.ok && outcome.refusal === "reference_invalid")
          throw new CliError(`--reference must be at most ${PAYOUT_REFERENCE_MAX_CHARS} characters without control characters`);
        if (!outcome.ok) throw new CliError(`payout batch ${id} is ${outcome.status}, not pending`);
        const { batch, marked } = outcome;
        output(
          args,
          { payoutBatchId: id, status: batch.status, reference: batch.reference, marked },
          () => `payout batch ${id} is ${batch.status}; the webhook is queued (the server sends it within seconds)`,
        );
      }),
  });
}

export const payoutMarkCommands = { export: exportCommand, "mark-paid": markCommand("paid"), "mark-failed": markCommand("failed") };
