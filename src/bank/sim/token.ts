import { createHmac, timingSafeEqual } from "node:crypto";
import type { Sensitive } from "../../sensitive";
import { SIM_TOKEN_MAX_CHARS } from "./sim-limits";

/**
 * Signed tokens of the simulated bank: `base64url(JSON payload).base64url(HMAC-SHA256)`.
 * The bank keeps no state between calls, so anything it must trust later travels signed.
 */

/**
 * HMAC under one secret for several purposes; the label separates them, so a token MAC never
 * equals a reference digest.
 */
export const keyedDigest = (secret: Sensitive<string>, label: string, data: string): Buffer =>
  createHmac("sha256", secret.reveal()).update(`kasa-sim-bank/${label}/v1\n`).update(data).digest();

const macOf = (secret: Sensitive<string>, body: string): string => keyedDigest(secret, "token", body).toString("base64url");

export const signToken = (secret: Sensitive<string>, payload: object): string => {
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return `${body}.${macOf(secret, body)}`;
};

/**
 * The payload if the token is genuine, else null. The MAC is compared as its canonical text in
 * constant time: decoding first would accept the other spellings base64 allows for the last
 * character, so a flipped bit could pass.
 */
export const openToken = (secret: Sensitive<string>, token: unknown): unknown => {
  if (typeof token !== "string" || token.length > SIM_TOKEN_MAX_CHARS) return null;
  const dot = token.indexOf(".");
  if (dot <= 0 || dot !== token.lastIndexOf(".")) return null;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "utf8");
  const expected = Buffer.from(macOf(secret, body), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
};
