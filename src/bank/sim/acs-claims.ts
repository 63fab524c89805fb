import type { Sensitive } from "../../sensitive";
import { isSimProfile, type SimProfile } from "../test-cards";
import { openToken, signToken } from "./token";

/**
 * The two signed messages of the 3D step. Both cross the buyer's browser, so both are signed and
 * neither carries card data: only the attempt, the card's behaviour profile and a deadline.
 *
 * - request: start3d -> ACS page. Binds what the ACS shows and where it posts (amount, callback).
 * - callback: ACS page -> relay callback. Binds the result to one attempt until a deadline.
 *
 * A `k` field names the kind, so a request token is never accepted as a callback token.
 */

export interface AcsRequest {
  attemptId: string;
  profile: SimProfile;
  amount: number;
  installment: number;
  callbackUrl: string;
  returnOrigin: string | null;
  expiresAtMs: number;
}

export interface CallbackClaim {
  attemptId: string;
  profile: SimProfile;
  expiresAtMs: number;
}

type Json = Record<string, unknown>;

const isJsonObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const isStr = (value: unknown): value is string => typeof value === "string" && value.length > 0;
const isInt = (value: unknown): value is number => Number.isSafeInteger(value);

// "Passed" means now >= deadline (docs/decisions.md, Readings of the contract), the same reading as every other expiry in kasa.
const isLive = (expiresAtMs: number, nowMs: number): boolean => nowMs < expiresAtMs;

export const issueAcsRequest = (secret: Sensitive<string>, r: AcsRequest): string =>
  signToken(secret, {
    k: "req",
    a: r.attemptId,
    p: r.profile,
    m: r.amount,
    i: r.installment,
    c: r.callbackUrl,
    r: r.returnOrigin,
    x: r.expiresAtMs,
  });

export const readAcsRequest = (secret: Sensitive<string>, token: unknown, nowMs: number): AcsRequest | null => {
  const p = openToken(secret, token);
  if (!isJsonObject(p) || p.k !== "req" || !isStr(p.a) || !isSimProfile(p.p)) return null;
  if (!isInt(p.m) || !isInt(p.i) || !isStr(p.c) || !(p.r === null || isStr(p.r)) || !isInt(p.x)) return null;
  if (!isLive(p.x, nowMs)) return null;
  return {
    attemptId: p.a,
    profile: p.p,
    amount: p.m,
    installment: p.i,
    callbackUrl: p.c,
    returnOrigin: p.r,
    expiresAtMs: p.x,
  };
};

export const issueCallbackToken = (secret: Sensitive<string>, c: CallbackClaim): string =>
  signToken(secret, { k: "cb", a: c.attemptId, p: c.profile, x: c.expiresAtMs });

export const readCallbackToken = (secret: Sensitive<string>, token: unknown, nowMs: number): CallbackClaim | null => {
  const p = openToken(secret, token);
  if (!isJsonObject(p) || p.k !== "cb" || !isStr(p.a) || !isSimProfile(p.p) || !isInt(p.x)) return null;
  return isLive(p.x, nowMs) ? { attemptId: p.a, profile: p.p, expiresAtMs: p.x } : null;
};
