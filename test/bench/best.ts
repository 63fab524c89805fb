import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Figure } from "./ceilings";

// The best figure each kasa row has ever reached on this machine (issue 37), kept in a committed
// file: a run compares with it as well as with the base commit, so a slow drift of a few percent a
// commit cannot hide behind "no worse than the previous one". A figure better than the record
// replaces it (commit the file with the change that earned it); a figure more than 10% worse than
// the record is a MISS, like one more than 10% worse than the base.

export const BEST_FILE = "test/bench/best.json";
const TOLERANCE = 0.9;

type Unit = "rps" | "seconds";
export type Best = { value: number; unit: Unit; at: string; commit: string };
export type BestRow = { id: string; label: string; kind: "rps" | "seconds" | "mib"; kasa?: true };

export function readBest(file = BEST_FILE): Record<string, Best> {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, Best>) : {};
}

const figureOf = (row: BestRow, f: Figure): number | undefined => (row.kind === "rps" ? f.rps : f.seconds);
/** Higher is better for a rate, lower for a time. */
const better = (unit: Unit, a: number, b: number): boolean => (unit === "rps" ? a > b : a < b);
const worse = (unit: Unit, current: number, best: number): boolean =>
  unit === "rps" ? current < best * TOLERANCE : current > best / TOLERANCE;

function commitOf(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/**
 * The table against the records and the misses; `record` true writes every new best back. A row
 * with no record yet sets one. Smoke passes (a second of load) neither compare nor record.
 */
export function compareWithBest(rows: readonly BestRow[], results: Record<string, Figure>, record: boolean, file = BEST_FILE) {
  const best = readBest(file);
  const table = ["| figure, vs the best ever (test/bench/best.json) | this run | best | this / best | |", "|---|---:|---:|---:|---|"];
  const misses: string[] = [];
  const missedIds: string[] = [];
  const at = new Date().toISOString();
  const commit = commitOf();
  let changed = false;
  for (const row of rows) {
    const fig = results[row.id];
    if (!row.kasa || row.kind === "mib" || !fig) continue;
    const value = figureOf(row, fig);
    if (value === undefined || Number.isNaN(value)) continue;
    const unit: Unit = row.kind === "rps" ? "rps" : "seconds";
    const record_ = best[row.id];
    if (record_ === undefined || better(unit, value, record_.value)) {
      if (record) {
        best[row.id] = { value, unit, at, commit };
        changed = true;
      }
      table.push(
        `| ${row.label} | ${fmt(value, unit)} | ${record_ ? fmt(record_.value, unit) : "none yet"} | ${record_ ? ratio(value, record_.value) : ""} | new best |`,
      );
      continue;
    }
    const miss = worse(unit, value, record_.value);
    if (miss) {
      misses.push(`${row.label} ${ratio(value, record_.value)} of its best (${record_.commit}, ${record_.at.slice(0, 10)})`);
      missedIds.push(row.id);
    }
    table.push(
      `| ${row.label} | ${fmt(value, unit)} | ${fmt(record_.value, unit)} | ${ratio(value, record_.value)} | ${miss ? "MISS" : "ok"} |`,
    );
  }
  if (changed) writeFileSync(file, `${JSON.stringify(best, null, 2)}\n`);
  const verdict =
    misses.length === 0
      ? "vs the best ever: no figure more than 10% worse than its best: PASS"
      : `vs the best ever: ${misses.length} figure(s) more than 10% worse than their best: MISS: ${misses.join("; ")}`;
  return { table, misses, missedIds, verdict };
}

const fmt = (value: number, unit: Unit) => (unit === "rps" ? `${Math.round(value).toLocaleString("en-US")}/s` : `${value.toFixed(2)} s`);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
