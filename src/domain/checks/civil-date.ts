/**
 * Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), after Howard
 * Hinnant's `days_from_civil` / `civil_from_days`. Integer-only, so dates are computed without
 * a `Date` object and without any dependency on the host's time zone.
 */

export const DAY_MS = 86_400_000;

export type CivilDate = { year: number; month: number; day: number };

/** Days in the 400-year Gregorian cycle, and the day number of 0000-03-01. */
const DAYS_PER_ERA = 146_097;
const EPOCH_SHIFT = 719_468;

/** Day number of a calendar date (month 1-12). */
export function daysFromCivil({ year, month, day }: CivilDate): number {
  // Years start in March here, so the leap day is the last day of the year.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * DAYS_PER_ERA + dayOfEra - EPOCH_SHIFT;
}

/** Calendar date of a day number. */
export function civilFromDays(days: number): CivilDate {
  const z = days + EPOCH_SHIFT;
  const era = Math.floor(z / DAYS_PER_ERA);
  const dayOfEra = z - era * DAYS_PER_ERA;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** ISO weekday of a day number: Monday 1 ... Sunday 7 (day 0, 1970-01-01, was a Thursday). */
export function isoWeekday(days: number): number {
  return ((((days + 3) % 7) + 7) % 7) + 1;
}

/** Zero-padded decimal: pad(7, 2) -> "07". */
export function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

/** "YYYY-MM-DD" for years 0000-9999, the only ones the service ever formats. */
export function formatCivil({ year, month, day }: CivilDate): string {
  if (year < 0 || year > 9999) throw new RangeError("date outside years 0000-9999");
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Parses a real "YYYY-MM-DD" date (2026-02-30 is refused), else throws RangeError. */
export function parseCivil(text: string): CivilDate {
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text);
  if (match) {
    const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
    // A date is real when it survives the round trip through its day number.
    const back = civilFromDays(daysFromCivil(date));
    if (date.month >= 1 && date.month <= 12 && back.day === date.day && back.month === date.month) return date;
  }
  throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(text)}`);
}
