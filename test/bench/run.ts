import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUDGET_NAMES } from "../../src/domain/rate-limits/budgets";
import { bareScan, h3Diagnostic, httpCeiling, naiveWriteCeiling, storageCeiling, type Figure } from "./ceilings";
import * as s from "./scenarios";
import { raisedLimitsFile } from "./seed-db";
import { ensureWrk, waitForQuiet } from "./tools";

// `npm run bench` (README, Performance): ceilings and kasa's scenarios in one run, each figure
// divided by the ceiling measured beside it. `--smoke` is the quick pass `npm test` runs so the
// suite can never silently go missing again (issue 14): small seeds, 1 s, no waiting for quiet.
//
//   bun test/bench/run.ts [--seconds N] [--only id,id] [--keep] [--smoke]

type Row = {
  id: string;
  label: string;
  against: "http" | "naive" | "scan" | "create" | null;
  kind: "rps" | "seconds" | "mib";
  run: (ctx: s.RunContext) => Promise<Figure>;
};

const scan = { figure: null as Figure | null, db: "" };

/** The table, in print order; ceilings first. Later issues add rows here. */
const ROWS: Row[] = [
  {
    id: "ceiling-http",
    label: 'ceiling: bare Bun.serve {"ok":true}',
    against: null,
    kind: "rps",
    run: (c) => httpCeiling(c.dir, c.sizes.seconds),
  },
  {
    id: "h3-http",
    label: 'diagnostic: bare h3 app {"ok":true}',
    against: "http",
    kind: "rps",
    run: (c) => h3Diagnostic(c.dir, c.sizes.seconds),
  },
  {
    id: "ceiling-storage",
    label: "ceiling: bun:sqlite 1-row tx, FULL",
    against: null,
    kind: "rps",
    run: (c) => storageCeiling(c.dir, c.sizes.seconds),
  },
  {
    id: "ceiling-naive",
    label: "ceiling: Bun.serve + 1 FULL insert/req",
    against: null,
    kind: "rps",
    run: (c) => naiveWriteCeiling(c.dir, c.sizes.seconds),
  },
  { id: "list-links", label: "list links (page of 20 of the partner's links)", against: "http", kind: "rps", run: s.listLinks },
  { id: "get-link", label: "get link", against: "http", kind: "rps", run: s.getLink },
  { id: "installment-options", label: "installment options", against: "http", kind: "rps", run: s.installmentOptions },
  {
    id: "create-payment",
    label: "create payment (new codes, connection limits)",
    against: "naive",
    kind: "rps",
    run: (c) => s.createNew(c),
  },
  {
    id: "create-payment-1m",
    label: "create payment on a month of payments",
    against: "create",
    kind: "rps",
    run: (c) => s.createNew(c, c.sizes.payments),
  },
  { id: "create-payment-replay", label: "create payment (replays)", against: "http", kind: "rps", run: s.createReplay },
  { id: "create-link", label: "create link", against: "naive", kind: "rps", run: s.createLinks },
  { id: "full-flows", label: "full handoff flows (64 buyers)", against: "naive", kind: "rps", run: s.fullFlows },
  { id: "webhooks", label: "webhook deliveries", against: "naive", kind: "rps", run: s.webhookDeliveries },
  {
    id: "startup",
    label: "start-up with pending timers (s)",
    against: "scan",
    kind: "seconds",
    run: async (c) => {
      const r = await s.startupWithTimers(c);
      scan.db = r.db;
      return r.figure;
    },
  },
  {
    id: "startup-scan",
    label: "ceiling: bare scan of the same rows (s)",
    against: null,
    kind: "seconds",
    run: async (c) => (scan.figure = await bareScan(c.dir, scan.db || (await s.startupWithTimers(c)).db)),
  },
];

function options(argv: string[]) {
  const smoke = argv.includes("--smoke");
  const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const seconds = Number(value("--seconds") ?? (smoke ? 1 : 6));
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error("--seconds must be a positive number");
  const only = value("--only")?.split(",") ?? null;
  const unknown = only?.filter((id) => !ROWS.some((r) => r.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(", ")}; ids: ${ROWS.map((r) => r.id).join(", ")}`);
  const sizes: s.Sizes = smoke
    ? { links: 2_000, timers: 5_000, payments: 2_000, deliveries: 300, seconds }
    : { links: 100_000, timers: 1_000_000, payments: 1_000_000, deliveries: 20_000, seconds };
  return { smoke, keep: argv.includes("--keep"), only, sizes };
}

const fmt = (n: number | undefined, digits = 0) =>
  n === undefined || Number.isNaN(n) ? "" : n.toLocaleString("en-US", { maximumFractionDigits: digits });

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  if (!existsSync("dist/kasa")) throw new Error("dist/kasa is missing: run `npm run bench` (it builds first)");
  ensureWrk();
  mkdirSync("bench", { recursive: true });
  // Inside the project, so the ceiling scripts resolve the project's own node_modules.
  const dir = mkdtempSync(join("bench", "run-"));
  const ctx: s.RunContext = { dir, limitsFile: raisedLimitsFile(dir, BUDGET_NAMES), sizes: o.sizes, nowMs: Date.now() };
  const quiet = { ms: o.smoke ? 0 : 60_000 };
  const results: Record<string, Figure & { label: string; busyBefore: number }> = {};
  for (const row of ROWS.filter((r) => o.only === null || o.only.includes(r.id) || r.against === null)) {
    const busyBefore = await waitForQuiet(quiet);
    process.stderr.write(`[bench] ${row.id}\n`);
    results[row.id] = { ...(await row.run(ctx)), busyBefore, label: row.label };
  }
  const ceilingOf = { http: "ceiling-http", naive: "ceiling-naive", scan: "startup-scan", create: "create-payment" } as const;
  const lines = ["| figure | value | p99 ms | server µs/op | busy before | vs | ratio |", "|---|---:|---:|---:|---:|---|---:|"];
  for (const row of ROWS) {
    const r = results[row.id];
    if (!r) continue;
    const value = row.kind === "rps" ? r.rps : r.seconds;
    const base = row.against === null ? undefined : results[ceilingOf[row.against]];
    const baseValue = row.kind === "rps" ? base?.rps : base?.seconds;
    const ratio = value !== undefined && baseValue ? value / baseValue : undefined;
    const shown = row.kind === "rps" ? `${fmt(value)}/s` : `${fmt(value, 2)} s, ${fmt(r.mib)} MiB`;
    lines.push(
      `| ${row.label} | ${shown} | ${fmt(r.p99Ms, 1)} | ${fmt(r.cpuUsPerOp)} | ${fmt(r.busyBefore * 100)}% | ${row.against ?? ""} | ${ratio === undefined ? "" : `${fmt(ratio, 2)}x`} |`,
    );
    results[row.id] = { ...r, ...(ratio === undefined ? {} : { ratio }) } as never;
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  writeFileSync(
    join("bench", "results.json"),
    `${JSON.stringify({ at: new Date().toISOString(), smoke: o.smoke, sizes: o.sizes, results }, null, 2)}\n`,
  );
  if (!o.keep) rmSync(dir, { recursive: true, force: true });
}

await main();
