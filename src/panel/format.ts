import { formatIstanbul } from "../domain/checks/istanbul-time";
import { formatTry } from "../domain/checks/money";
import { fail } from "../errors";

// How the panel shows and reads money and time: kuruş as "1.234,56 TL", instants as Istanbul
// wall time; typed amounts in lira with a comma or a dot before at most two decimals.

export const money = (kurus: number | null): string => (kurus === null ? "—" : formatTry(kurus));
export const when = (ms: number | null): string => (ms === null ? "—" : formatIstanbul(ms));

/** A calendar date "2026-11-27" as Turkey writes it, "27.11.2026". */
export const dateTr = (date: string | null): string => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date ?? "");
  return m ? `${m[3]}.${m[2]}.${m[1]}` : (date ?? "—");
};

const COUNT = new Intl.NumberFormat("tr-TR", { maximumFractionDigits: 0 });
const PERCENT = new Intl.NumberFormat("tr-TR", { style: "percent", maximumFractionDigits: 1 });

/** A count with Turkish grouping, "1.234". */
export const count = (n: number): string => COUNT.format(n);

/** A share as Turkey writes it, "%92,5"; "—" when there is nothing to divide. */
export const percent = (part: number, whole: number): string => (whole === 0 ? "—" : PERCENT.format(part / whole));

const AMOUNT = /^(\d{1,12})(?:[.,](\d{1,2}))?$/;

/** "12,5" -> 1250 kuruş; anything else is a 400 naming the field. */
export function toKurus(field: string, text: string): number {
  const m = AMOUNT.exec(text.trim().replace(/\s|TL$/gi, ""));
  if (!m) fail("validation_error", `${field}: an amount in lira, such as 125,50`);
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/** A positive whole number from a form, or the default when the field is empty. */
export function toCount(field: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text.trim() === "") return fallback;
  if (!/^\d{1,6}$/.test(text.trim())) fail("validation_error", `${field}: a whole number`);
  return Number(text.trim());
}
