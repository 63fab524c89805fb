import { defineCommand } from "citty";
import { CLASSES } from "../../src/domain/reconciliation/classify";
import { ReconcileUsageError, reconcile, runConnections, runDate } from "../../src/domain/reconciliation/service";
import { countsOf, needsOperator, type RunJson, toRunJson } from "../../src/domain/reconciliation/view";
import type { ReconcileRunRow } from "../../src/store/reconcile-ops";
import { CliError } from "../cli-error";
import { type CliContext, commonArgs, output, requireArg, table, withStore } from "../context";
import { details, istanbulOrDash, section, tryOrDash } from "../format";
import { serviceDeps } from "../service-deps";

// `kasa reconcile run|list|show` (docs/reconciliation.md): asks each connection's bank what it
// recorded of a day and compares. `run` exits 1 while a finding needs an operator (anything but a
// `bank_approved` charge whose reversal the bank approved), 2 on a malformed or future --date.
// Safe while the server runs: two runs of one connection never overlap (the second waits).

const deps = (ctx: CliContext) => serviceDeps(ctx, "reconcile");

const countsLine = (r: RunJson): string =>
  CLASSES.map((c) => `${c} ${r.counts[c]}`)
    .filter((s) => !s.endsWith(" 0"))
    .join(", ") || "nothing sent to the bank";

function describeRun(r: RunJson): string {
  const rows = r.findings.map((f) => ({
    class: f.class,
    payment: f.paymentCode,
    refund: f.refundId,
    kasa: `${f.kasa.status ?? "-"} ${tryOrDash(f.kasa.amount)}`,
    bank: `${f.bank.status} ${tryOrDash(f.bank.amount)}`,
    reference: f.bank.reference,
    repair: f.repair ? `${f.repair.action}: ${f.repair.outcome}` : null,
  }));
  const head = `run ${r.id}: ${r.connectionId} ${r.date}: ${countsLine(r)}`;
  return rows.length === 0 ? head : `${head}\n${table(rows)}`;
}

const run = defineCommand({
  meta: {
    name: "run",
    description:
      "Ask each connection's bank about a day and compare with kasa (default: yesterday, every connection not on the simulated bank).\n\nExample: kasa reconcile run --date 2026-03-01",
  },
  args: {
    connection: { type: "string", description: "only this connection (any bank, the simulated one too)", valueHint: "ID" },
    date: { type: "string", description: "the Istanbul day to reconcile (default: yesterday)", valueHint: "YYYY-MM-DD" },
    ...commonArgs,
  },
  run: ({ args }) =>
    withStore(args, async (ctx) => {
      const d = await deps(ctx);
      let day: string;
      let connections: string[];
      try {
        day = runDate(typeof args.date === "string" ? args.date : undefined, ctx.clock.nowMs());
        connections = await runConnections(d, typeof args.connection === "string" ? args.connection : undefined);
      } catch (error) {
        if (error instanceof ReconcileUsageError) throw new CliError(error.message, 2);
        throw error;
      }
      const results = await reconcile(d, connections, day);
      const runs = results.map((r) => toRunJson(r.run, r.findings));
      output(args, runs, () => (runs.length === 0 ? `no connection to reconcile for ${day}` : runs.map(describeRun).join("\n\n")));
      const open = results.filter((r) => needsOperator(r.findings)).length;
      if (open > 0) throw new CliError(`${open} run(s) left findings for an operator (docs/reconciliation.md)`);
    }),
});

const toListRow = (r: ReconcileRunRow) => {
  const counts = countsOf(r);
  return {
    run: r.id,
    connection: r.connectionId,
    date: r.day,
    ...Object.fromEntries(CLASSES.map((c) => [c, counts[c]])),
    finished: istanbulOrDash(r.finishedAtMs),
  };
};

const list = defineCommand({
  meta: {
    name: "list",
    description: "The current run of each connection and day, latest day first.\n\nExample: kasa reconcile list --connection vpos-est",
  },
  args: {
    connection: { type: "string", description: "only this connection", valueHint: "ID" },
    limit: { type: "string", description: "at most this many runs (default 50)", valueHint: "N" },
    ...commonArgs,
  },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const limit = args.limit === undefined ? 50 : Number(args.limit);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new CliError("--limit must be a whole number from 1 to 1000", 2);
      const runs = await store.q.reconcile.runs(typeof args.connection === "string" ? args.connection : null, limit);
      const json = await Promise.all(runs.map(async (r) => toRunJson(r, await store.q.reconcile.findings(r.id))));
      output(args, json, () => table(runs.map(toListRow)));
    }),
});

const show = defineCommand({
  meta: { name: "show", description: "One run with its findings.\n\nExample: kasa reconcile show rec_01jd0000000000000000" },
  args: { id: { type: "positional", description: "run id (rec_…)", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const r = await store.q.reconcile.run(requireArg(args.id, "id"));
      if (!r) throw new CliError(`unknown reconciliation run ${args.id}`);
      const json = toRunJson(r, await store.q.reconcile.findings(r.id));
      output(args, r.supersededBy === null ? json : { ...json, supersededBy: r.supersededBy }, () =>
        [
          details([
            ["run", r.id],
            ["connection", r.connectionId],
            ["date", r.day],
            ["counts", countsLine(json)],
            ["finished", istanbulOrDash(r.finishedAtMs)],
            ["superseded by", r.supersededBy],
          ]),
          section("findings", describeRun(json).split("\n").slice(1).join("\n") || "(none)"),
        ].join("\n"),
      );
    }),
});

export const reconcileCommand = defineCommand({
  meta: {
    name: "reconcile",
    description: "Reconciliation: kasa's records against the bank's own (run, list, show).\n\nExample: kasa reconcile run --json",
  },
  subCommands: { run, list, show },
});
