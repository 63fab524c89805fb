// The wire format of every date-time (docs/contract.md, Identifiers and formats): UTC ISO 8601 with
// milliseconds and "Z", as `Date.prototype.toISOString` writes it for years 0000-9999. Every
// response and every log line formats several, so the date part is kept per UTC day and the time
// part padded by hand (issue 37: a third of the former cost). Here, below the domain, so the log
// can use it too.

import { kept } from "./kept";

const DAY_MS = 86_400_000;
const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** "YYYY-MM-DDT" of a UTC day number, kept per day: a page of 20 links formats 100 instants of a few days. */
const dayPrefix = kept(4096, (day: number): string => {
  const date = new Date(day * DAY_MS);
  const prefix = Number.isNaN(date.getTime()) ? "" : date.toISOString().slice(0, 11);
  if (!/^\d{4}-\d{2}-\d{2}T$/.test(prefix)) throw new RangeError("date outside years 0000-9999");
  return prefix;
});

/**
 * `ms` (an integer of epoch milliseconds, years 0000-9999) as "2026-11-27T20:19:05.123Z"; RangeError otherwise.
 * The texts are kept: reads answer the same records again and again, and a string built by
 * concatenation is only flattened when JSON.stringify first meets it; a kept one is flattened once
 * (issue 37: 100 instants a page of links).
 */
export const toIso: (ms: number) => string = kept(8192, formatIso);

function formatIso(ms: number): string {
  if (!Number.isSafeInteger(ms)) throw new RangeError("instant must be an integer of epoch milliseconds");
  const day = Math.floor(ms / DAY_MS);
  const intoDay = ms - day * DAY_MS;
  const hh = two(Math.floor(intoDay / 3_600_000));
  const mm = two(Math.floor(intoDay / 60_000) % 60);
  return `${dayPrefix(day)}${hh}:${mm}:${two(Math.floor(intoDay / 1000) % 60)}.${three(intoDay % 1000)}Z`;
}
