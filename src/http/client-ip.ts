import type { H3Event } from "h3";
import { clientIp, rateKeyForIp } from "../domain/rate-limits/client-ip";
import { kept } from "../kept";

/**
 * The rate-limit identity of the caller's address (docs/contract.md, Rate limits): the socket peer, or with
 * --trust-proxy the address our proxy appended to X-Forwarded-For; IPv4-mapped IPv6 normalised,
 * IPv6 per /64. In-process test requests have no socket and share one "unknown" key.
 */
/** The caller's address itself (not its rate key), or null for an in-process request. */
export function callerIp(event: H3Event, trustProxy: boolean): string | null {
  const peer = (event.req as { ip?: string }).ip;
  return clientIp({ peer, forwardedFor: event.req.headers.get("x-forwarded-for"), trustProxy }) || null;
}

export function callerIpKey(event: H3Event, trustProxy: boolean): string {
  const peer = (event.req as { ip?: string }).ip;
  return ipKeyOf(clientIp({ peer, forwardedFor: event.req.headers.get("x-forwarded-for"), trustProxy }));
}

/**
 * rateKeyForIp of the addresses seen, kept: every API request needs its caller's key, and the same
 * few clients send most of them (issue 37: parsing the address was 3% of a cached read). Bounded
 * as the catalog cache is: past the bound the map starts over.
 */
const ipKeyOf = kept(10_000, rateKeyForIp);
