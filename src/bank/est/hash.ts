import { createHash, timingSafeEqual } from "node:crypto";
import { natCaseCompare } from "./natural-order";

// EST ver3 (`hashAlgorithm=ver3`), for the 3D form kasa posts and for the callback the bank posts
// back: every field but `hash`/`HASH`, `encoding` and Ziraat's `nationalidno`, sorted in PHP
// natural case-insensitive key order; each value, and the store key appended last, with `\`
// escaped to `\\` and then `|` to `\|`; joined with `|`; SHA-512; base64. Values are bytes:
// a callback is hashed over the raw percent-decoded octets the bank sent, never re-encoded text.

export type HashField = readonly [name: string, value: Uint8Array];

const EXCLUDED = new Set(["hash", "encoding", "nationalidno"]);
const BACKSLASH = 0x5c;
const PIPE = 0x7c;

export const asciiBytes = (s: string): Uint8Array => new TextEncoder().encode(s);

/** `\` -> `\\`, then `|` -> `\|` (one pass gives the same bytes: each is escaped once). */
function escapeInto(out: number[], value: Uint8Array): void {
  for (const b of value) {
    if (b === BACKSLASH || b === PIPE) out.push(BACKSLASH);
    out.push(b);
  }
}

/** The bytes SHA-512 runs over; exported for diagnosis and tests (it holds the store key). */
export function ver3Plaintext(fields: readonly HashField[], storeKey: Uint8Array): Uint8Array {
  const hashed = fields.filter(([name]) => !EXCLUDED.has(name.toLowerCase()));
  // Array.prototype.sort is stable, as PHP 8's ksort is: equal keys keep their posted order.
  const sorted = [...hashed].sort((a, b) => natCaseCompare(a[0], b[0]));
  const out: number[] = [];
  for (const [, value] of sorted) {
    escapeInto(out, value);
    out.push(PIPE);
  }
  escapeInto(out, storeKey);
  return Uint8Array.from(out);
}

export function ver3Hash(fields: readonly HashField[], storeKey: Uint8Array): string {
  return createHash("sha512").update(ver3Plaintext(fields, storeKey)).digest("base64");
}

/** The form kasa posts: string values, in the order they are posted. */
export function ver3HashOfStrings(fields: ReadonlyArray<readonly [string, string]>, storeKey: string): string {
  return ver3Hash(
    fields.map(([name, value]) => [name, asciiBytes(value)] as const),
    asciiBytes(storeKey),
  );
}

/** Constant-time check of a posted `HASH` against the fields it came with. */
export function ver3Matches(fields: readonly HashField[], storeKey: Uint8Array, claimed: string): boolean {
  const expected = Buffer.from(ver3Hash(fields, storeKey), "latin1");
  const given = Buffer.from(claimed, "latin1");
  return expected.length === given.length && timingSafeEqual(expected, given);
}
