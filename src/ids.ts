import { createHash, randomBytes, randomInt } from "node:crypto";
import type { Clock } from "./clock";
import { API_KEY_RANDOM_CHARS } from "./limits";
import { Sensitive } from "./sensitive";

// The only randomness in src/ (docs/contract.md#identifiers-and-formats formats).

const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford, lower-case
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomChars(alphabet: string, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/**
 * `n` base32 characters from one read of `n` random bytes: 32 divides 256, so the low 5 bits of a
 * uniform byte are uniform. Every request makes a trace id; one call instead of sixteen
 * (randomInt each) was 2% of a read's CPU (docs/performance.md).
 */
function randomBase32(n: number): string {
  const bytes = randomBytes(n);
  let out = "";
  for (let i = 0; i < n; i++) out += BASE32[(bytes[i] as number) & 31];
  return out;
}

const base64url = (bytes: number): string => randomBytes(bytes).toString("base64url");

/** 10 base32 chars of epoch ms (sorts by time until year 10889), then 10 random ones. */
function timeOrdered(clock: Clock): string {
  let t = clock.nowMs();
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = BASE32[t % 32] + head;
    t = Math.floor(t / 32);
  }
  return head + randomBase32(10);
}

export type Ids = ReturnType<typeof createIds>;

export function createIds(clock: Clock) {
  return {
    partnerId: () => `ptn_${randomBase32(16)}`,
    paymentCode: () => `pay_${timeOrdered(clock)}`,
    paymentRef: () => `ref_${base64url(24)}`, // 24 bytes = 32 base64url chars
    linkId: () => `pl_${timeOrdered(clock)}`,
    linkToken: () => base64url(24),
    refundId: () => `rfd_${timeOrdered(clock)}`,
    deliveryId: () => `evt_${timeOrdered(clock)}`,
    payoutBatchId: () => `pob_${timeOrdered(clock)}`,
    reconcileRunId: () => `rec_${timeOrdered(clock)}`,
    // A hyphen, not `_`: the attempt id is also the bank's order id (EST `oid`: letters, digits, `-`).
    attemptId: () => `att-${timeOrdered(clock)}`,
    keyId: () => `key_${randomBase32(16)}`,
    traceId: () => `tr_${randomBase32(16)}`,
    nonce: () => base64url(16),
    apiKey: () => new Sensitive(`kasa_sk_${randomChars(BASE62, API_KEY_RANDOM_CHARS)}`),
    secret: (prefix: string) => new Sensitive(`${prefix}${base64url(24)}`),
    // docs/panel.md: the merchant panel.
    userId: () => `usr_${randomBase32(16)}`,
    /** 32 bytes: the cookie is the only credential of a logged-in user. */
    sessionId: () => new Sensitive(base64url(32)),
    csrfToken: () => base64url(32),
    /** One-time passwords printed by `kasa users add|reset-password` and the sandbox banner. */
    password: () => new Sensitive(randomChars(BASE62, 20)),
    salt: () => randomBytes(16),
    /** docs/postgresql.md: a kasa instance on a shared database, for its heartbeat row. */
    instanceId: () => `ins_${randomBase32(16)}`,
  };
}

/** Session ids are stored only as SHA-256, as keys are: a copy of the database opens no session. */
export const hashSessionId = (id: Sensitive<string>): string => createHash("sha256").update(id.reveal()).digest("hex");

/** Keys are stored and looked up only as SHA-256 (docs/contract.md, Identifiers and formats). */
export const hashApiKey = (key: Sensitive<string>): string => createHash("sha256").update(key.reveal()).digest("hex");

/** docs/postgresql.md "Connection limits across instances": one store's holder id for its reservations of room. */
export const roomHolderId = (): string => `hold_${randomBase32(16)}`;
