// Europe/Istanbul wall time. Türkiye has kept UTC+03:00 all year since September 2016, so a fixed
// offset gives the same answer as the tz database and behaves the same on Node and Bun.

const OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Days since the epoch in Istanbul: two instants with the same number share a calendar day. */
export const istanbulDay = (ms: number): number => Math.floor((ms + OFFSET_MS) / DAY_MS);

const p = (n: number, w = 2) => String(n).padStart(w, "0");

/** `YYYYMMDD HH:MM:SS`, the answers' ProvDate. */
export function provDate(ms: number): string {
  const d = new Date(ms + OFFSET_MS);
  return `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}
