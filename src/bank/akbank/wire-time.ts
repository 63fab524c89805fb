import { randomBytes } from "node:crypto";

// Values every AkbankPos request carries: the Istanbul wall-clock time it was made and a fresh
// 128-hex random number. Türkiye has kept UTC+03:00 all year since September 2016, so a fixed
// offset gives the tz database's answer on Node and Bun alike.

const OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `yyyy-MM-ddTHH:mm:ss.SSS`, Istanbul time, no zone: the bank refuses another clock (VPS-1073). */
export function requestDateTime(ms: number): string {
  const d = new Date(ms + OFFSET_MS);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
}

/** The instant a `requestDateTime` names, or null when it is not one. */
export function fromRequestDateTime(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - OFFSET_MS;
}

/** Days since the epoch in Istanbul: two instants with the same number share a calendar day. */
export const istanbulDay = (ms: number): number => Math.floor((ms + OFFSET_MS) / DAY_MS);

/** 128 upper-case hex characters, fresh per request. */
export const randomNumber = (): string => randomBytes(64).toString("hex").toUpperCase();
