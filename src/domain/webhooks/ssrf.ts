/**
 * SSRF guard for webhook targets (product 11): `serve` refuses URLs that resolve to loopback,
 * private or link-local addresses unless started with `--allow-private-webhooks`.
 *
 * Every resolved address must be public, not just the first: the HTTP client may pick any of them.
 * The check does not pin the address it saw, so a DNS answer that changes between this check and
 * the request (rebinding) is not covered here; redirects, the other classic bypass, are never
 * followed by `sendDelivery`.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

export type ResolvedAddress = { address: string; family?: number };
/** Injectable so tests never depend on real DNS. */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export type TargetRefusal = "invalid_url" | "unsupported_scheme" | "unresolvable" | "blocked_address";

export type TargetCheck = { ok: true } | { ok: false; reason: TargetRefusal; message: string };

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
  if (options.allowPrivate) return { ok: true };
  // WHATWG URL parsing already canonicalises literal hosts ("0x7f.1" -> "127.0.0.1", "[::1]").
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = isIP(host) !== 0 ? [host] : await resolveAll(host, options.resolve ?? resolveWithDns);
  if (addresses === null) return refuse("unresolvable", `${host} did not resolve`);
  for (const address of addresses) {
    const category = blockedCategory(address);
    if (category !== null) return refuse("blocked_address", `${host} resolves to ${category} address ${address}`);
  }
  return { ok: true };
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

/** [network, prefix length, category]; covers the ranges named in product 11 and a few never-unicast ones. */
const BLOCKED_V4: readonly (readonly [string, number, string])[] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.168.0.0", 16, "private"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
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

function blockedV6(groups: readonly number[]): string | null {
  const [g0 = 0, g1 = 0, , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const upperZero = groups.slice(0, 5).every((group) => group === 0);
  const embeddedV4 = ((g6 << 16) | g7) >>> 0;
  if (upperZero && g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return g7 === 0 ? "unspecified" : "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) reaches the IPv4 host itself; IPv4-compatible (::a.b.c.d) and
  // NAT64 (64:ff9b::a.b.c.d) may be translated to it, so all three are judged by the IPv4 inside.
  if (upperZero && (g5 === 0xffff || g5 === 0)) return blockedV4(embeddedV4);
  if (g0 === 0x64 && g1 === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) return blockedV4(embeddedV4);
  if ((g0 & 0xfe00) === 0xfc00) return "private";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xffc0) === 0xfec0) return "site-local";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return null;
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
