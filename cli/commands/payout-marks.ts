import { defineCommand } from "citty";
import { consola } from "consola";
import { toLira } from "../../src/bank/est/amounts";
import { awaitsBankPayout, markPayout, type PayoutMark } from "../../src/domain/settlement/payouts";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, withStore } from "../context";

// Product 17: with a real bank (EST) a payout is not an acquiring call. A day end's batches stay
// pending; the operator exports what to transfer, transfers it, and marks each batch, which sends
// payout.paid_out or payout.failed like the simulated bank's own answer would.

/** One CSV cell: quoted when needed, and text a spreadsheet would run as a formula is defused. */
export function csvCell(value: string | number | null): string {
  let s = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const CSV_COLUMNS = ["payoutBatchId", "partnerId", "partnerName", "payoutAccount", "day", "amountKurus", "amountTry"];

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
      const rows = [];
      for (const b of await store.q.settlement.pendingBatches()) {
        if (await awaitsBankPayout(store.q, b.id)) continue;
        const partner = await store.q.partners.get(b.partnerId);
        rows.push({
          payoutBatchId: b.id,
          partnerId: b.partnerId,
          partnerName: partner?.name ?? null,
          payoutAccount: partner?.payoutAccount ?? null,
          day: b.day,
          amountKurus: b.amount,
          amountTry: toLira(b.amount),
        });
      }
      if (format === "json") {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const lines = [CSV_COLUMNS.join(","), ...rows.map((r) => CSV_COLUMNS.map((c) => csvCell(r[c as keyof typeof r])).join(","))];
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
      withStore(args, async ({ store, clock, ids }) => {
        const id = requireArg(args.batch, "batch");
        const reference = typeof args.reference === "string" && args.reference !== "" ? args.reference : null;
        if (reference !== null && (reference.length > 200 || /[\p{Cc}]/u.test(reference))) {
          throw new CliError("--reference must be at most 200 characters without control characters");
        }
        const log = { info: consola.info, warn: consola.warn, error: consola.error };
        const deps = { ids, log, timers: { schedule: () => {} } };
        const marked = await store.write(async (tx) => {
          const batch = await tx.settlement.batch(id);
          if (!batch) throw new CliError(`unknown payout batch ${id}`);
          if (batch.status !== "pending") throw new CliError(`payout batch ${id} is ${batch.status}, not pending`);
          return await markPayout(tx, deps, id, { status, reference }, clock.nowMs());
        });
        const batch = await store.q.settlement.batch(id);
        output(
          args,
          { payoutBatchId: id, status: batch?.status, reference: batch?.reference ?? null, marked },
          () => `payout batch ${id} is ${batch?.status}; the webhook is queued (the server sends it within seconds)`,
        );
      }),
  });
}

export const payoutMarkCommands = { export: exportCommand, "mark-paid": markCommand("paid"), "mark-failed": markCommand("failed") };
