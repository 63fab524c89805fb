/**
 * SSRF guard for webhook targets (docs/contract.md, Webhooks): `serve` refuses URLs that resolve to loopback,
 * private or link-local addresses unless started with `--allow-private-webhooks`.
 *
 * Every resolved address must be public, not just the first. The check answers the address it
 * approved and the delivery connects to exactly that one (`pinned-request.ts`), so a DNS answer
 * that changes between the check and the request (rebinding) cannot redirect it; redirects, the
 * other classic bypass, are never followed.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

export type ResolvedAddress = { address: string; family?: number };
/** Injectable so tests never depend on real DNS. */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export type TargetRefusal = "invalid_url" | "unsupported_scheme" | "unresolvable" | "blocked_address";

/** `address` is the one the request must connect to (null when private targets are allowed). */
export type TargetCheck = { ok: true; address: ResolvedAddress | null } | { ok: false; reason: TargetRefusal; message: string };

export interface TargetCheckOptions {
  allowPrivate: boolean;
  resolve?: ResolveHost;
}

/** `verbatim` keeps the resolver's order and both families, so no address escapes the check. */
export const resolveWithDns: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Whether a webhook may be sent to `url`. "unresolvable" is separate from "blocked_address" because
 * a DNS failure may be transient (the worker can treat it like a connection error) while a
 * blocked address is a configuration the partner has to change.
 */
export async function checkWebhookTarget(url: string, options: TargetCheckOptions): Promise<TargetCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse("invalid_url", "not an absolute URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return refuse("unsupported_scheme", `scheme ${parsed.protocol} is not http or https`);
  }
  if (options.allowPrivate) return { ok: true, address: null };
  // WHATWG URL parsing already canonicalises literal hosts ("0x7f.1" -> "127.0.0.1", "[::1]").
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = isIP(host) !== 0 ? [host] : await resolveAll(host, options.resolve ?? resolveWithDns);
  if (addresses === null) return refuse("unresolvable", `${host} did not resolve`);
  for (const address of addresses) {
    const category = blockedCategory(address);
    if (category !== null) return refuse("blocked_address", `${host} resolves to ${category} address ${address}`);
  }
  const first = addresses[0] as string;
  return { ok: true, address: { address: first, family: isIP(first) } };
}

async function resolveAll(host: string, resolve: ResolveHost): Promise<string[] | null> {
  try {
    const answers = await resolve(host);
    return answers.length === 0 ? null : answers.map((answer) => answer.address);
  } catch {
    return null;
  }
}

function refuse(reason: TargetRefusal, message: string): TargetCheck {
  return { ok: false, reason, message };
}

/**
 * docs/decisions.md, Hardening: every range of the IANA IPv4 Special-Purpose Address Registry, and multicast,
 * [network, prefix length, category]. Some of them are marked globally reachable there (AS112,
 * AMT); none is a partner's webhook server, so all are refused.
 */
const BLOCKED_V4: readonly (readonly [string, number, string])[] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation (TEST-NET-1)"],
  ["192.31.196.0", 24, "AS112"],
  ["192.52.193.0", 24, "AMT"],
  ["192.88.99.0", 24, "6to4 relay anycast"],
  ["192.168.0.0", 16, "private"],
  ["192.175.48.0", 24, "AS112"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation (TEST-NET-2)"],
  ["203.0.113.0", 24, "documentation (TEST-NET-3)"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

/**
 * docs/decisions.md, Hardening: the IANA IPv6 Special-Purpose Address Registry, [network, prefix, category]. Only
 * global unicast (2000::/3) outside these ranges is a webhook target; IPv4-mapped addresses
 * (::ffff:0:0/96) reach the IPv4 host itself and are judged by it.
 */
const BLOCKED_V6: readonly (readonly [string, number, string])[] = [
  ["64:ff9b::", 96, "NAT64"],
  ["64:ff9b:1::", 48, "NAT64 (local use)"],
  ["100::", 64, "discard-only"],
  ["100:0:0:1::", 64, "dummy prefix"],
  ["2001::", 32, "Teredo"],
  ["2001::", 23, "IETF protocol assignments"],
  ["2001:db8::", 32, "documentation"],
  ["2002::", 16, "6to4"],
  ["2620:4f:8000::", 48, "AS112"],
  ["3fff::", 20, "documentation"],
  ["5f00::", 16, "SRv6 SIDs"],
  ["fc00::", 7, "private"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
];

/**
 * The category of a blocked address, or null for an address webhooks may go to. Anything that is
 * not a parseable IP is blocked too: a resolver answer we cannot read is not one we can trust.
 */
export function blockedCategory(address: string): string | null {
  const v4 = parseIPv4(address);
  if (v4 !== null) return blockedV4(v4);
  const v6 = parseIPv6(address);
  if (v6 === null) return "unparseable";
  return blockedV6(v6);
}

function blockedV4(value: number): string | null {
  for (const [network, prefix, category] of BLOCKED_V4) {
    const shift = 32 - prefix;
    if (value >>> shift === (parseIPv4(network) as number) >>> shift) return category;
  }
  return null;
}

const toBigInt = (groups: readonly number[]): bigint => groups.reduce((n, g) => (n << 16n) | BigInt(g), 0n);
const inPrefix = (value: bigint, network: string, prefix: number): boolean =>
  value >> BigInt(128 - prefix) === toBigInt(parseIPv6(network) as number[]) >> BigInt(128 - prefix);

function blockedV6(groups: readonly number[]): string | null {
  const value = toBigInt(groups);
  if (value === 0n) return "unspecified";
  if (value === 1n) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) reaches the IPv4 host itself: judged by it.
  if (value >> 32n === 0xffffn) return blockedV4(Number(value & 0xffffffffn));
  for (const [network, prefix, category] of BLOCKED_V6) if (inPrefix(value, network, prefix)) return category;
  // Everything else outside global unicast 2000::/3 (IPv4-compatible ::/96, unassigned space).
  return value >> 125n === 1n ? null : "reserved";
}

/** Strict dotted-quad only; resolvers and the URL parser both emit this canonical form. */
export function parseIPv4(text: string): number | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (match === null) return null;
  let value = 0;
  for (const part of match.slice(1)) {
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** Eight 16-bit groups, or null. Accepts `::` compression, an IPv4 tail and a zone id. */
export function parseIPv6(text: string): number[] | null {
  const address = text.replace(/%.*$/, "");
  const halves = address.split("::");
  if (halves.length > 2) return null;
  // An IPv4 tail may only end the address, so the part before `::` must not have one.
  const head = parseGroups(halves[0] ?? "", halves.length === 1);
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? "", true) : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function parseGroups(text: string, mayEndInV4: boolean): number[] | null {
  if (text === "") return [];
  const parts = text.split(":");
  const groups: number[] = [];
  for (const [index, part] of parts.entries()) {
    if (mayEndInV4 && index === parts.length - 1 && part.includes(".")) {
      const v4 = parseIPv4(part);
      if (v4 === null) return null;
      groups.push(v4 >>> 16, v4 & 0xffff);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      groups.push(Number.parseInt(part, 16));
    } else {
      return null;
    }
  }
  return groups;
}
