/**
 * Open-redirect protection for every URL the service sends a browser to (`redirectUrl` of a
 * payment link, `returnUrl` of a payment): docs/contract.md, redirectUrl / Requests and authentication.
 *
 * The raw string is checked by hand BEFORE `new URL()` sees it. The WHATWG parser forgives a lot
 * (it drops tabs and newlines, trims spaces, treats "\" as "/", skips extra slashes, decodes
 * percent-escapes and numeric IPv4 forms in hosts), and Bun's and Node's parsers differ in
 * corners. Accepting only a plain `scheme://host[:port]` prefix of printable ASCII leaves the
 * parser nothing to forgive, so both runtimes and every browser read the same host we checked.
 */

/** Longest accepted URL; longer values are refused rather than truncated. Belongs in limits.ts. */
export const REDIRECT_URL_MAX_LENGTH = 2048;

export type RedirectUrlProblem =
  | `must be at most ${typeof REDIRECT_URL_MAX_LENGTH} characters`
  | "must contain only printable ASCII characters, without spaces or backslashes"
  | "must be an absolute http or https URL"
  | "must not contain user information"
  | "host must be a plain host name or IP address in canonical form"
  | "host is not on the allowed host list";

export type RedirectUrlCheck = { ok: true; url: string } | { ok: false; reason: RedirectUrlProblem };

/**
 * Printable ASCII (0x21-0x7E) minus the backslash. Refusing everything else at once covers
 * control characters, all whitespace, and Unicode lookalikes (IDN hosts must be sent in
 * punycode, paths percent-encoded).
 */
const PRINTABLE_ASCII = /^[\x21-\x5B\x5D-\x7E]*$/;

/** `scheme://authority` at the very start; the authority ends at the first / ? or #. */
const ABSOLUTE_PREFIX = /^(https?):\/\/([^/?#]*)/i;

/**
 * Host as a DNS name (letters, digits, hyphens; optional trailing dot) or bracketed IPv6, then an
 * optional port. No "_": it is not a host-name character and CSP host-sources cannot carry it, so a
 * page could not allow the redirect in its form-action.
 */
const AUTHORITY = /^((?:[a-z0-9-]+\.)*[a-z0-9-]+\.?|\[[0-9a-f:.]+\])(?::([0-9]{0,5}))?$/i;

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

const refuse = (reason: RedirectUrlProblem): RedirectUrlCheck => ({ ok: false, reason });

/**
 * Checks `raw` and returns the URL as the WHATWG parser serialises it (ASCII, lower-case scheme
 * and host, default port dropped, "/" path for an empty one), which is the exact string to put
 * in a Location header.
 *
 * `allowedHosts` null means the account has no list: only the shape is checked. Entries are
 * compared exactly after lower-casing (no suffix or prefix matching, "shop.example." with a
 * trailing dot is a different entry). An entry without a port allows any port of that host,
 * since every port belongs to the same host owner; an entry with a port ("localhost:3000")
 * allows only that port (the scheme's default port counts as given).
 */
export function checkRedirectUrl(raw: string, allowedHosts: readonly string[] | null): RedirectUrlCheck {
  if (raw.length > REDIRECT_URL_MAX_LENGTH) return refuse(`must be at most ${REDIRECT_URL_MAX_LENGTH} characters`);
  if (!PRINTABLE_ASCII.test(raw)) {
    return refuse("must contain only printable ASCII characters, without spaces or backslashes");
  }
  const prefix = ABSOLUTE_PREFIX.exec(raw);
  const authority = prefix?.[2];
  if (!authority) return refuse("must be an absolute http or https URL");
  // Even an empty userinfo ("https://@host") is refused: "@" in the authority is a classic
  // way to make a URL look like it goes to the host written before it.
  if (authority.includes("@")) return refuse("must not contain user information");
  const rawHost = AUTHORITY.exec(authority)?.[1]?.toLowerCase();
  if (rawHost === undefined) return refuse("host must be a plain host name or IP address in canonical form");

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("must be an absolute http or https URL");
  }
  // The parser rewrites some hosts ("127.1" becomes "127.0.0.1", IPv6 is compressed); a host
  // that does not survive parsing unchanged is refused so that no two readings of it exist.
  if (url.hostname !== rawHost) return refuse("host must be a plain host name or IP address in canonical form");
  if (url.username !== "" || url.password !== "") return refuse("must not contain user information");
  if (allowedHosts !== null && !isHostAllowed(url, allowedHosts)) return refuse("host is not on the allowed host list");
  return { ok: true, url: url.href };
}

/** Exact, case-insensitive comparison of the URL's host with one list entry. */
function isHostAllowed(url: URL, allowedHosts: readonly string[]): boolean {
  const port = url.port || DEFAULT_PORTS[url.protocol] || "";
  const hostWithPort = `${url.hostname}:${port}`;
  return allowedHosts.some((entry) => {
    const wanted = entry.toLowerCase();
    return /:[0-9]+$/.test(wanted) ? wanted === hostWithPort : wanted === url.hostname;
  });
}

export type RedirectOutcome = "success" | "failure";

/**
 * `{redirectUrl}/payment/success` or `/payment/failure` (docs/contract.md, redirectUrl), built on the URL's
 * path rather than by string concatenation, so a query or fragment in `redirectUrl` stays a query
 * or fragment instead of swallowing the suffix, and a trailing "/" does not double up.
 * `checkedUrl` must be the `url` returned by `checkRedirectUrl`.
 */
export function toRedirectResultUrl(checkedUrl: string, outcome: RedirectOutcome): string {
  const url = new URL(checkedUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/payment/${outcome}`;
  return url.href;
}
