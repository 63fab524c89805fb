// The wire format of every date-time (docs/contract.md, Identifiers and formats): UTC ISO 8601 with
// milliseconds and "Z", as `Date.prototype.toISOString` writes it for years 0000-9999. Every
// response and every log line formats several, so the date part is kept per UTC day and the time
// part padded by hand (issue 37: a third of the former cost). Here, below the domain, so the log
// can use it too.

const DAY_MS = 86_400_000;
/** "YYYY-MM-DDT" of a UTC day number, kept per day: a page of 20 links formats 100 instants of a few days. */
const dayPrefixes = new Map<number, string>();
const MAX_DAYS = 4096;
const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

function dayPrefix(day: number): string {
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    const date = new Date(day * DAY_MS);
    prefix = Number.isNaN(date.getTime()) ? "" : date.toISOString().slice(0, 11);
    if (!/^\d{4}-\d{2}-\d{2}T$/.test(prefix)) throw new RangeError("date outside years 0000-9999");
    if (dayPrefixes.size >= MAX_DAYS) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  return prefix;
}

/**
 * The text of each instant formatted lately, kept: reads answer the same records again and again,
 * and a string built by concatenation is only flattened when JSON.stringify first meets it; the
 * kept one is flattened once (issue 37: 100 instants a page of links). Past the bound it starts over.
 */
const texts = new Map<number, string>();
const MAX_TEXTS = 8192;

/** `ms` (an integer of epoch milliseconds, years 0000-9999) as "2026-11-27T20:19:05.123Z"; RangeError otherwise. */
export function toIso(ms: number): string {
  const kept = texts.get(ms);
  if (kept !== undefined) return kept;
  const text = formatIso(ms);
  if (texts.size >= MAX_TEXTS) texts.clear();
  texts.set(ms, text);
  return text;
}

function formatIso(ms: number): string {
  if (!Number.isSafeInteger(ms)) throw new RangeError("instant must be an integer of epoch milliseconds");
  const day = Math.floor(ms / DAY_MS);
  const intoDay = ms - day * DAY_MS;
  const hh = two(Math.floor(intoDay / 3_600_000));
  const mm = two(Math.floor(intoDay / 60_000) % 60);
  return `${dayPrefix(day)}${hh}:${mm}:${two(Math.floor(intoDay / 1000) % 60)}.${three(intoDay % 1000)}Z`;
}
