import { formatIstanbul } from "../src/domain/checks/istanbul-time";
import { toIso } from "../src/iso-time";
import { formatTry } from "../src/domain/checks/money";
import { escapeControls } from "./escape";

// Formatting shared by the operator commands (docs/operating.md, The operator CLI): humans read TRY and Istanbul wall
// time; `--json` carries integers of kuruş and UTC ISO instants, like the API.

export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));

/** Human amount: "1.234,56 TL", or "-" when there is none. */
export const tryOrDash = (kurus: number | null): string => (kurus === null ? "-" : formatTry(kurus));

/** Human instant in Europe/Istanbul: "21.11.2026 23:05", or "-". */
export const istanbulOrDash = (ms: number | null): string => (ms === null ? "-" : formatIstanbul(ms));

/** Human form of an ISO instant from a JSON view. */
export const istanbulOfIso = (iso: string | null): string => (iso === null ? "-" : formatIstanbul(Date.parse(iso)));

/** A record as aligned "label  value" lines, for `show` commands. */
export function details(pairs: Array<[string, unknown]>): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  const cell = (v: unknown) =>
    escapeControls(v === null || v === undefined || v === "" ? "-" : Array.isArray(v) ? v.join(",") || "-" : String(v));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${cell(value)}`).join("\n");
}

/** A titled section of a `show` output. */
export const section = (title: string, body: string): string => `\n${title}:\n${body}`;
