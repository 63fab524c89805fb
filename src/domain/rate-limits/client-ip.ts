/**
 * The source-IP key of the per-IP budgets (docs/contract.md, Rate limits): the socket peer, or with `--trust-proxy`
 * the left-most X-Forwarded-For entry. IPv4-mapped IPv6 counts as the IPv4 address it carries, so
 * a dual-stack socket cannot give one client two budgets; IPv6 is limited per /64, because one
 * subscriber usually holds a whole /64 and could otherwise rotate addresses inside it for free.
 */

/** The key of every address that does not parse; sharing it means garbage buys no fresh budget. */
export const UNKNOWN_IP_KEY = "unknown";

/** Strips what surrounds an address in headers and socket APIs: spaces, [brackets], :port, %zone. */
const toBareAddress = (raw: string): string => {
  let text = raw.trim().toLowerCase();
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    text = end === -1 ? text.slice(1) : text.slice(1, end);
  } else if (/^[\d.]+:\d+$/.test(text)) {
    text = text.slice(0, text.lastIndexOf(":"));
  }
  const zone = text.indexOf("%");
  return zone === -1 ? text : text.slice(0, zone);
};

/** Dotted quad, decimal only: leading zeros are refused as some parsers read them as octal. */
const parseIpv4 = (text: string): number[] | undefined => {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const octets = parts.map((part) => (/^(0|[1-9]\d{0,2})$/.test(part) ? Number(part) : 256));
  return octets.every((octet) => octet <= 255) ? octets : undefined;
};

const parseGroups = (text: string): number[] | undefined => {
  if (text === "") return [];
  const groups = text.split(":");
  return groups.every((group) => /^[0-9a-f]{1,4}$/.test(group)) ? groups.map((group) => Number.parseInt(group, 16)) : undefined;
};

/** The eight 16-bit groups of a lower-case IPv6 address, with `::` and a dotted IPv4 tail. */
const parseIpv6 = (text: string): number[] | undefined => {
  let body = text;
  let tail: number[] = [];
  if (text.includes(".")) {
    const lastColon = text.lastIndexOf(":");
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail = [v4[0]! * 256 + v4[1]!, v4[2]! * 256 + v4[3]!];
    // Keep a trailing "::" (it is the compression); drop a lone ":" that only separated the tail.
    body = text.slice(0, lastColon + 1);
    body = body.endsWith("::") ? body : body.slice(0, -1);
  }
  const width = 8 - tail.length;
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const left = parseGroups(halves[0]!);
  if (left === undefined) return undefined;
  if (halves.length === 1) return left.length === width ? [...left, ...tail] : undefined;
  const right = parseGroups(halves[1]!);
  // "::" stands for at least one zero group.
  if (right === undefined || left.length + right.length > width - 1) return undefined;
  const zeros = new Array<number>(width - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right, ...tail];
};

const isV4Mapped = (groups: readonly number[]): boolean => groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;

/**
 * The key an address is limited under: an IPv4 address as a canonical dotted quad, an IPv6 one as
 * its /64 prefix (`2001:db8:0:1::/64`), anything unparseable as UNKNOWN_IP_KEY. Equal keys for
 * every spelling of one client: upper case, zero padding, `::` anywhere, zone ids, brackets, ports.
 */
export const rateKeyForIp = (raw: string): string => {
  const text = toBareAddress(raw);
  if (!text.includes(":")) return parseIpv4(text)?.join(".") ?? UNKNOWN_IP_KEY;
  const groups = parseIpv6(text);
  if (groups === undefined) return UNKNOWN_IP_KEY;
  if (isV4Mapped(groups)) {
    const [high, low] = [groups[6]!, groups[7]!];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
};

export const isIpAddress = (raw: string): boolean => rateKeyForIp(raw) !== UNKNOWN_IP_KEY;

export type ClientIpInput = {
  /** The socket peer address; undefined when there is no socket (in-process requests in tests). */
  readonly peer: string | undefined;
  /** The X-Forwarded-For header, all values joined with ",". */
  readonly forwardedFor?: string | null | undefined;
  readonly trustProxy: boolean;
};

/**
 * The client's address as given, before rateKeyForIp. X-Forwarded-For is read only with
 * `--trust-proxy`: without a proxy in front, any caller could write it. We take the RIGHT-most
 * entry, the one our own proxy appended: entries to its left were written by the client and
 * could be rotated to mint fresh IP budgets. An unparseable entry falls back to the peer.
 */
export const clientIp = ({ peer, forwardedFor, trustProxy }: ClientIpInput): string => {
  if (trustProxy && forwardedFor) {
    const last = forwardedFor.slice(forwardedFor.lastIndexOf(",") + 1).trim();
    if (isIpAddress(last)) return last;
  }
  return peer ?? "";
};
