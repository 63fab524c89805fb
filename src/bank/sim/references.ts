import { randomBytes } from "node:crypto";
import type { Sensitive } from "../../sensitive";
import type { SimProfile } from "../test-cards";
import { keyedDigest } from "./token";

/**
 * Bank-side references of the simulated bank. The bank keeps no table, so a reference carries
 * what later calls need, and nothing about the card:
 *
 * - capture `SIM-<profile letter>-<16 hex>`: the behaviour profile survives a restart, so refund
 *   behaviour does too. The hex is an HMAC of the attemptId, so a retried capture gets the same
 *   reference and auth code (idempotent, like a bank's order id).
 * - refund/void `SIMRF|SIMVD-<requested at, base36 ms>-<12 hex>`: a pending refund knows when it was
 *   asked for without state. The tail is random (node:crypto, the sim's only randomness, allowed
 *   here because real banks mint these references themselves): two equal refunds of one payment at
 *   the same sandbox instant still get distinct references.
 * - payout `SIMPO-<16 hex>`, random for the same reason.
 */

const LETTER_BY_PROFILE: Readonly<Record<SimProfile, string>> = {
  approve: "A",
  decline_at_3d: "D",
  auth_fails: "F",
  insufficient_funds: "N",
  refund_pending: "P",
  refund_declined: "R",
};

const PROFILE_BY_LETTER: ReadonlyMap<string, SimProfile> = new Map(
  Object.entries(LETTER_BY_PROFILE).map(([profile, letter]) => [letter, profile as SimProfile]),
);

const CAPTURE_PATTERN = /^SIM-([A-Z])-[0-9A-F]{16}$/;
const REFUND_PATTERN = /^SIM(RF|VD)-([0-9A-Z]{1,11})-[0-9A-F]{12}$/;

export type RefundKind = "refund" | "void";

const randomHex = (bytes: number): string => randomBytes(bytes).toString("hex").toUpperCase();

export const toCaptureReference = (secret: Sensitive<string>, attemptId: string, profile: SimProfile): string => {
  const tail = keyedDigest(secret, "capture", attemptId).subarray(0, 8).toString("hex").toUpperCase();
  return `SIM-${LETTER_BY_PROFILE[profile]}-${tail}`;
};

/** The profile a capture reference was minted with, or null for anything this bank did not mint. */
export const toProfileOfCapture = (bankReference: string): SimProfile | null => {
  const letter = CAPTURE_PATTERN.exec(bankReference)?.[1];
  return letter === undefined ? null : (PROFILE_BY_LETTER.get(letter) ?? null);
};

export const newRefundReference = (kind: RefundKind, nowMs: number): string =>
  `SIM${kind === "void" ? "VD" : "RF"}-${nowMs.toString(36).toUpperCase()}-${randomHex(6)}`;

/** When the refund was asked for, or null if the reference is not one of ours. */
export const toRefundRequestedAtMs = (refundReference: string): number | null => {
  const encoded = REFUND_PATTERN.exec(refundReference)?.[2];
  if (encoded === undefined) return null;
  const ms = Number.parseInt(encoded, 36);
  return Number.isSafeInteger(ms) ? ms : null;
};

export const newPayoutReference = (): string => `SIMPO-${randomHex(8)}`;

/** Six digits derived from a reference, so asking twice about one transaction gives one code. */
export const toAuthCode = (secret: Sensitive<string>, reference: string): string =>
  (keyedDigest(secret, "auth-code", reference).readUInt32BE(0) % 1_000_000).toString().padStart(6, "0");
