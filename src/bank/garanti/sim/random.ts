import { randomBytes, randomInt } from "node:crypto";

// The random references the simulated bank hands out. Only their shape matters to a merchant.

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join("");

/** 20 characters, like the bank's own `rnd`. */
export const newRnd = (): string => randomBytes(15).toString("base64");
/** The 3DS2 transaction id, a UUID. */
export const newXid = (): string => crypto.randomUUID();
export const newCavv = (): string => randomBytes(20).toString("base64");
/** An opaque base64 token, as long as the bank's. */
export const newMd = (): string => randomBytes(96).toString("base64");
export const newAuthCode = (): string => digits(6);
export const newRetrefNum = (): string => digits(12);
