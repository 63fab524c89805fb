import { defineCommand } from "citty";
import { istanbulDate } from "../../src/domain/checks/istanbul-time";
import { runDueDayEnds, type DayEndReport } from "../../src/domain/settlement/dayend";
import { commonArgs, output, table, withStore } from "../context";
import { tryOrDash } from "../format";
import { serviceDeps } from "../service-deps";
import { toPayoutJson } from "./payouts";

// `kasa dayend` (docs/contract.md, Refunds; docs/operating.md, The operator CLI): runs every day end that is due by the database's clock (the
// sandbox clock when the database has one, else the system clock) and has not run yet, oldest
// first. Safe while the server runs: the dayends row decides who runs a day end, so the server's
// midnight timer and this command never both settle or pay one day. Webhooks are only queued;
// the running server's sweep sends them (or its next start does).

const toReportJson = (r: DayEndReport) => ({ day: r.day, ran: r.ran, settled: r.settled, payouts: r.batches.map(toPayoutJson) });

function describe(reports: DayEndReport[], today: string): string {
  if (reports.length === 0) return `nothing to do: every day before ${today} has had its day end`;
  const lines = reports.map((r) =>
    r.ran
      ? `day end of ${r.day}: ${r.settled} capture(s) settled, ${r.batches.length} payout batch(es)`
      : `day end of ${r.day}: already run elsewhere`,
  );
  const batches = reports.flatMap((r) => r.batches);
  if (batches.length === 0) return lines.join("\n");
  const rows = batches.map((b) => ({ batch: b.id, partner: b.partnerId, day: b.day, amount: tryOrDash(b.amount), status: b.status }));
  return `${lines.join("\n")}\n\n${table(rows)}`;
}

export const dayendCommand = defineCommand({
  meta: {
    name: "dayend",
    description: "Run the due day ends: settle ended days' captures and pay out what is due.\n\nExample: kasa dayend --db kasa.db",
  },
  args: { ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store, clock }) => {
      const deps = await serviceDeps({ store, clock }, "dayend");
      const reports = await runDueDayEnds(deps);
      output(args, reports.map(toReportJson), () => describe(reports, istanbulDate(clock.nowMs())));
    }),
});
