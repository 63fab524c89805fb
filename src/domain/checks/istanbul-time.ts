import { DAY_MS, civilFromDays, daysFromCivil, formatCivil, isoWeekday, pad, parseCivil } from "./civil-date";

/**
 * Europe/Istanbul is UTC+3 all year (no DST since 2016), and it is the business calendar
 * (docs/contract.md, Identifiers and formats). A fixed offset is used instead of the IANA zone so results do not depend on the
 * runtime's time-zone data. Instants are epoch milliseconds; they come from the caller's clock.
 */
export const ISTANBUL_OFFSET_MS = 3 * 3_600_000;

/** Istanbul day number (days since 1970-01-01 in Istanbul) of an instant. */
function istanbulDays(ms: number): number {
  return Math.floor((ms + ISTANBUL_OFFSET_MS) / DAY_MS);
}

/** Instant at which an Istanbul day number begins. */
function dayStartMs(days: number): number {
  return days * DAY_MS - ISTANBUL_OFFSET_MS;
}

/** Calendar date in Istanbul, "YYYY-MM-DD" (e.g. `expectedValueDate`, `lastDay`). */
export function istanbulDate(ms: number): string {
  return formatCivil(civilFromDays(istanbulDays(ms)));
}

/** Instant of 00:00 Istanbul on the day containing `ms`. */
export function startOfIstanbulDayMs(ms: number): number {
  return dayStartMs(istanbulDays(ms));
}

/** The first Istanbul midnight strictly after `ms` (a day end due at exactly midnight is next day's). */
export function nextIstanbulMidnightMs(ms: number): number {
  return dayStartMs(istanbulDays(ms) + 1);
}

/** Instant of 00:00 Istanbul on a "YYYY-MM-DD" date (e.g. the day end that pays value date D). */
export function istanbulDateStartMs(date: string): number {
  return dayStartMs(daysFromCivil(parseCivil(date)));
}

/** "YYYY-MM-DD" plus `n` calendar days (n may be negative); throws on an invalid date. */
export function addDays(date: string, n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError("addDays: n must be an integer");
  return formatCivil(civilFromDays(daysFromCivil(parseCivil(date)) + n));
}

/**
 * ISO 8601 week of the Istanbul date, "YYYY-Www" (e.g. "2026-W53"): weeks start on Monday and
 * belong to the year of their Thursday, so early-January days can fall in the previous year.
 * Key of the weekly bank-connection limit window (docs/seed.md, Partners, terminals and connections).
 */
export function isoWeekKey(ms: number): string {
  const days = istanbulDays(ms);
  const thursday = days - isoWeekday(days) + 4;
  const weekYear = civilFromDays(thursday).year;
  const week = Math.floor((thursday - daysFromCivil({ year: weekYear, month: 1, day: 1 })) / 7) + 1;
  return `${pad(weekYear, 4)}-W${pad(week, 2)}`;
}

/** Instant of Monday 00:00 Istanbul starting the ISO week that contains `ms`. */
export function startOfIstanbulWeekMs(ms: number): number {
  const days = istanbulDays(ms);
  return dayStartMs(days - isoWeekday(days) + 1);
}

/** Istanbul month "YYYY-MM": key of the monthly bank-connection limit window (docs/seed.md, Partners, terminals and connections). */
export function monthKey(ms: number): string {
  return istanbulDate(ms).slice(0, 7);
}

/** Instant of the 1st of the Istanbul month containing `ms`, 00:00 Istanbul. */
export function startOfIstanbulMonthMs(ms: number): number {
  const { year, month } = civilFromDays(istanbulDays(ms));
  return dayStartMs(daysFromCivil({ year, month, day: 1 }));
}

/** Hours, minutes, seconds and milliseconds into the day, for an offset-adjusted instant. */
function timeOfDay(localMs: number): { hh: string; mm: string; ss: string; mmm: string } {
  const intoDay = localMs - Math.floor(localMs / DAY_MS) * DAY_MS;
  return {
    hh: pad(Math.floor(intoDay / 3_600_000), 2),
    mm: pad(Math.floor(intoDay / 60_000) % 60, 2),
    ss: pad(Math.floor(intoDay / 1000) % 60, 2),
    mmm: pad(intoDay % 1000, 3),
  };
}

function assertInstant(ms: number): void {
  if (!Number.isSafeInteger(ms)) throw new RangeError("instant must be an integer of epoch milliseconds");
}

/** Istanbul wall time for pages and the CLI: "21.11.2026 23:05". */
export function formatIstanbul(ms: number): string {
  assertInstant(ms);
  const { year, month, day } = civilFromDays(istanbulDays(ms));
  const { hh, mm } = timeOfDay(ms + ISTANBUL_OFFSET_MS);
  return `${pad(day, 2)}.${pad(month, 2)}.${pad(year, 4)} ${hh}:${mm}`;
}
