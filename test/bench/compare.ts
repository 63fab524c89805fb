import type { Figure } from "./ceilings";

// This tree's kasa figures beside the same scenarios run, in the same run, against the base
// commit's binary: a second small table and one verdict line. Only kasa's own figures are compared
// (rates, start-up seconds, start-up memory); ceilings and diagnostics measure the machine, not the
// commit, and p99 and CPU per operation are shown in the main table but are too noisy to gate on.

/** A base run either answers a figure or says why it could not (e.g. an older schema or flag). */
export type BaseResult = Figure | { error: string };
export type CompareRow = { id: string; label: string; kind: "rps" | "seconds" | "mib" };
export type BaseInfo = { ref: string; sha: string; short: string };

type Unit = "rps" | "seconds" | "mib";
type Line = { label: string; unit: Unit; current: number; base: number | null; error?: string };

/**
 * "More than 10% worse". A rate is worse when it is below 0.9 × the base. A time or memory figure
 * is lower-is-better, and is worse when above base / 0.9 (≈ +11.1%), not base × 1.1: a time that
 * grows to base / 0.9 is exactly what a rate falling to 0.9 × base costs per operation, so both
 * kinds of figure miss at the same loss. Memory uses the same bound so there is one rule.
 */
export const TOLERANCE = 0.9;

export function worse(unit: Unit, current: number, base: number): boolean {
  return unit === "rps" ? current < TOLERANCE * base : current > base / TOLERANCE;
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
const show = (unit: Unit, n: number) => (unit === "rps" ? `${fmt(n)}/s` : unit === "seconds" ? `${fmt(n, 2)} s` : `${fmt(n)} MiB`);

/** The compared figures of one row: its rate, or (start-up) its seconds and its memory. */
function linesOf(row: CompareRow, current: Figure, base: BaseResult | undefined): Line[] {
  const failed = base !== undefined && "error" in base ? base.error : undefined;
  const baseFigure = base === undefined || "error" in base ? undefined : base;
  const error = failed ?? (base === undefined ? "not run" : undefined);
  const wanted: [Unit, keyof Figure, string][] =
    row.kind === "rps"
      ? [["rps", "rps", row.label]]
      : [
          ["seconds", "seconds", row.label],
          ["mib", "mib", `${row.label.replace(/ \(s\)$/, "")}: memory (MiB)`],
        ];
  const lines: Line[] = [];
  for (const [unit, key, label] of wanted) {
    const value = current[key];
    if (value === undefined) continue;
    const baseValue = baseFigure?.[key];
    lines.push({ label, unit, current: value, base: baseValue ?? null, ...(error === undefined ? {} : { error }) });
  }
  return lines;
}

export type Comparison = { table: string[]; verdict: string; misses: string[]; notCompared: string[] };

/** "get link (reason)"-style notes grouped by reason, so one refusal repeated per figure reads once. */
function notComparedNote(skipped: { label: string; reason: string }[]): string {
  const byReason = new Map<string, string[]>();
  for (const { label, reason } of skipped) byReason.set(reason, [...(byReason.get(reason) ?? []), label]);
  return [...byReason].map(([reason, labels]) => `${labels.join(", ")} (${reason})`).join("; ");
}

/** The verdict line; a run where no figure could be compared says so rather than PASS. */
function verdictOf(head: string, compared: number, misses: string[], skipped: { label: string; reason: string }[]): string {
  const note = skipped.length === 0 ? "" : `; not compared: ${notComparedNote(skipped)}`;
  if (compared === 0) return `${head}: no figure could be compared: NOT COMPARED${note}`;
  if (misses.length > 0) return `${head}: ${misses.length} figure(s) more than 10% worse than the base: MISS: ${misses.join("; ")}${note}`;
  const of = skipped.length === 0 ? "" : ` (${compared} of ${compared + skipped.length} compared)`;
  return `${head}: no figure more than 10% worse than the base${of}: PASS${note}`;
}

/** The comparison table and its verdict line, for the rows run against both binaries. */
export function compare(rows: CompareRow[], current: Record<string, Figure>, base: Record<string, BaseResult>, info: BaseInfo): Comparison {
  // A ref given as a commit id would read "21b2853 = 21b2853"; a name reads "HEAD~1 = a3076e1".
  const head = `vs base (${info.sha.startsWith(info.ref) ? info.short : `${info.ref} = ${info.short}`})`;
  const table = [`| figure, ${head} | this tree | base | this / base | |`, "|---|---:|---:|---:|---|"];
  const misses: string[] = [];
  const skipped: { label: string; reason: string }[] = [];
  let compared = 0;
  for (const row of rows) {
    const fig = current[row.id];
    if (!fig) continue;
    for (const l of linesOf(row, fig, base[row.id])) {
      if (l.base === null || l.base <= 0) {
        skipped.push({ label: l.label, reason: l.error ?? "the base gave no figure" });
        table.push(`| ${l.label} | ${show(l.unit, l.current)} | ${l.error === undefined ? "" : "failed"} | | n/a |`);
        continue;
      }
      compared += 1;
      const ratio = l.current / l.base;
      const miss = worse(l.unit, l.current, l.base);
      const bound = l.unit === "rps" ? `needs ≥ ${TOLERANCE.toFixed(2)}x` : `needs ≤ ${(1 / TOLERANCE).toFixed(2)}x`;
      if (miss) misses.push(`${l.label} ${ratio.toFixed(2)}x (${bound})`);
      table.push(`| ${l.label} | ${show(l.unit, l.current)} | ${show(l.unit, l.base)} | ${ratio.toFixed(2)}x | ${miss ? "MISS" : "ok"} |`);
    }
  }
  const notCompared = skipped.map((x) => x.label);
  return { table, verdict: verdictOf(head, compared, misses, skipped), misses, notCompared };
}
