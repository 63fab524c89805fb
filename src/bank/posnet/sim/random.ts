import { randomBytes, randomInt } from "node:crypto";

// The random strings the simulated bank hands out; only their shape matters to a merchant.

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join("");

export const newHex = (bytes: number): string => randomBytes(bytes).toString("hex").toUpperCase();
export const newAuthCode = (): string => digits(6);
/** 18 characters, like `0000000002P0806031`. */
export const newHostlogkey = (): string => `${digits(10)}P${digits(7)}`;

// Europe/Istanbul has kept UTC+03:00 all year since 2016: a fixed offset, same on Node and Bun.
const OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Days since the epoch in Istanbul: two instants with the same number share a calendar day. */
export const istanbulDay = (ms: number): number => Math.floor((ms + OFFSET_MS) / DAY_MS);

/** `2019-10-10 11:21:14.281`, the tranDate of agreement. */
export function tranDate(ms: number): string {
  const iso = new Date(ms + OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}

/** Kuruş as lira with a decimal comma (`1,16`), as agreement writes amounts. */
export const liraComma = (kurus: number): string => `${Math.floor(kurus / 100)},${String(kurus % 100).padStart(2, "0")}`;
