import { randomBytes, randomInt } from "node:crypto";
import { yyddd } from "./clock";

// The random references the simulated bank hands out. Only their shape matters to a merchant.

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join("");
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** 20 characters of base64, like EST's own `rnd`. */
export const newRnd = (): string => randomBytes(15).toString("base64");
export const newXid = (): string => randomBytes(20).toString("base64");
export const newCavv = (): string => randomBytes(20).toString("base64");
/** `${bin6}:${64 hex}:${4 digits}:##${clientId}`: carries the BIN, never the rest of the PAN. */
export const newMd = (bin6: string, clientId: string): string =>
  `${bin6}:${randomBytes(32).toString("hex").toUpperCase()}:${digits(4)}:##${clientId}`;
export const newAuthCode = (): string => digits(6);
export const newHostRefNum = (): string => digits(12);
/** e.g. `24015OBcD123456`: year, day of year, then 10 random characters. */
export const newTransId = (nowMs: number): string =>
  `${yyddd(nowMs)}${Array.from({ length: 10 }, () => ALNUM[randomInt(ALNUM.length)]).join("")}`;
