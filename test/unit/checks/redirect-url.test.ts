import { describe, expect, it } from "vitest";
import { REDIRECT_URL_MAX_LENGTH, checkRedirectUrl, toRedirectResultUrl } from "../../../src/domain/checks/redirect-url";

const ALLOWED = ["shop.example"];

/**
 * Open-redirect bypass attempts; every one must be refused when only shop.example is allowed.
 * "shape" rows are refused whatever the list; "host" rows are well-formed URLs to another host.
 */
const BYPASSES: Array<[label: string, raw: string, refusedFor: "shape" | "host"]> = [
  ["protocol-relative", "//evil.com", "shape"],
  ["protocol-relative to the allowed host", "//shop.example/cb", "shape"],
  ["scheme without slashes", "https:evil.com", "shape"],
  ["scheme with one slash", "https:/evil.com", "shape"],
  ["three slashes", "https:///evil.com", "shape"],
  ["four slashes", "https:////evil.com", "shape"],
  ["allowed host as userinfo", "https://shop.example@evil.com", "shape"],
  ["allowed host and port as userinfo", "https://shop.example:443@evil.com", "shape"],
  ["backslash before @", "https://evil.com\\@shop.example", "shape"],
  ["backslash as slash", "https:\\\\evil.com", "shape"],
  ["slash-backslash relative", "/\\evil.com", "shape"],
  ["scheme slash backslash", "https:/\\evil.com", "shape"],
  ["backslashes only", "\\\\evil.com", "shape"],
  ["backslash inside host", "https://shop.example\\.evil.com", "shape"],
  ["allowed host as subdomain prefix", "https://shop.example.evil.com", "host"],
  ["allowed host upper-cased as prefix", "https://SHOP.EXAMPLE.evil.com", "host"],
  ["allowed host as suffix", "https://evilshop.example", "host"],
  ["other subdomain", "https://www.shop.example", "host"],
  ["trailing dot is a different entry", "https://shop.example./", "host"],
  ["underscore in host (not a host name; CSP cannot allow it)", "https://shop_example.test/", "shape"],
  ["javascript scheme", "javascript:alert(1)", "shape"],
  ["javascript with newline", "java\nscript:alert(1)", "shape"],
  ["vbscript scheme", "vbscript:msgbox(1)", "shape"],
  ["data scheme", "data:text/html,<script>alert(1)</script>", "shape"],
  ["file scheme", "file:///etc/passwd", "shape"],
  ["ftp scheme", "ftp://shop.example/", "shape"],
  ["blob scheme", "blob:https://shop.example/1234", "shape"],
  ["allowed host in fragment after @", "https://evil.com#@shop.example", "host"],
  ["allowed host in query", "https://evil.com?shop.example", "host"],
  ["allowed host after ?@", "https://evil.com?@shop.example", "host"],
  ["allowed host in path", "https://evil.com/shop.example", "host"],
  ["tab inside host", "https://sho\tp.example/", "shape"],
  ["newline inside host", "https://shop.ex\nample/", "shape"],
  ["CRLF before @", "https://shop.example\r\n@evil.com", "shape"],
  ["NUL byte", "https://evil.com\u0000.shop.example", "shape"],
  ["leading space", " https://shop.example/", "shape"],
  ["trailing space", "https://shop.example/ ", "shape"],
  ["space in path", "https://shop.example/a b", "shape"],
  ["encoded slash before @", "https://shop.example%2f@evil.com", "shape"],
  ["encoded # before @", "https://evil.com%23@shop.example", "shape"],
  ["percent-encoded dot in host", "https://shop%2eexample/", "shape"],
  ["empty userinfo", "https://@shop.example/", "shape"],
  ["userinfo on the allowed host", "https://user:pass@shop.example/", "shape"],
  ["Cyrillic a lookalike", "https://shop.exаmple/", "shape"],
  ["punycode of the lookalike", "https://xn--shop-example-xyz.example/", "host"],
  ["ideographic full stop", "https://shop\u3002example/", "shape"],
  ["full-width full stop", "https://shop\uff0eexample/", "shape"],
  ["zero-width space", "https://shop.example\u200b/", "shape"],
  ["right-to-left override", "https://\u202eelpmaxe.pohs/", "shape"],
  ["relative path", "/payment/success", "shape"],
  ["relative host-looking path", "shop.example/cb", "shape"],
  ["empty string", "", "shape"],
  ["port out of range", "https://shop.example:99999/", "shape"],
  ["non-numeric port", "https://shop.example:abc/", "shape"],
  ["short IPv4 form", "https://127.1/", "shape"],
  ["hex IPv4 form", "https://0x7f.0.0.1/", "shape"],
  ["too long", `https://shop.example/${"a".repeat(REDIRECT_URL_MAX_LENGTH - 20)}`, "shape"],
];

describe("interface 4.1.1 redirectUrl / product 3: open-redirect bypasses are refused", () => {
  it("the long bypass is exactly one character over the limit", () => {
    expect(BYPASSES.at(-1)?.[1].length).toBe(REDIRECT_URL_MAX_LENGTH + 1);
  });

  it.each(BYPASSES)("%s: %j", (_label, raw) => {
    expect(checkRedirectUrl(raw, ALLOWED).ok).toBe(false);
  });
});

describe("interface 4.1.1 redirectUrl: refusal reasons", () => {
  it.each([
    ["https://shop.example/" + "a".repeat(2028), "must be at most 2048 characters"],
    ["https://evil.com\\@shop.example", "must contain only printable ASCII characters, without spaces or backslashes"],
    ["https://shop.exаmple/", "must contain only printable ASCII characters, without spaces or backslashes"],
    ["https://sho\tp.example/", "must contain only printable ASCII characters, without spaces or backslashes"],
    ["javascript:alert(1)", "must be an absolute http or https URL"],
    ["//evil.com", "must be an absolute http or https URL"],
    ["https:///evil.com", "must be an absolute http or https URL"],
    ["https://shop.example:99999/", "must be an absolute http or https URL"],
    ["https://shop.example@evil.com", "must not contain user information"],
    ["https://127.1/", "host must be a plain host name or IP address in canonical form"],
    ["https://[0:0::1]/", "host must be a plain host name or IP address in canonical form"],
    ["https://shop%2eexample/", "host must be a plain host name or IP address in canonical form"],
    ["https://evilshop.example/", "host is not on the allowed host list"],
  ])("%j -> %s", (raw, reason) => {
    expect(checkRedirectUrl(raw, ALLOWED)).toEqual({ ok: false, reason });
  });
});

describe("interface 4.1.1 redirectUrl: accepted with the allowed list", () => {
  it.each([
    ["exact host", "https://shop.example", "https://shop.example/"],
    ["exact host with slash", "https://shop.example/", "https://shop.example/"],
    ["upper-case host and scheme", "HTTPS://SHOP.Example/Back", "https://shop.example/Back"],
    ["path and query", "https://shop.example/orders/42?lang=tr&x=1", "https://shop.example/orders/42?lang=tr&x=1"],
    ["fragment", "https://shop.example/cb#done", "https://shop.example/cb#done"],
    ["http", "http://shop.example/cb", "http://shop.example/cb"],
    ["any port of a listed host", "https://shop.example:8443/cb", "https://shop.example:8443/cb"],
    ["default port dropped", "https://shop.example:443/cb", "https://shop.example/cb"],
    ["percent-encoded path", "https://shop.example/%C3%BCr%C3%BCn", "https://shop.example/%C3%BCr%C3%BCn"],
    ["exactly the maximum length", `https://shop.example/${"a".repeat(2048 - 21)}`, `https://shop.example/${"a".repeat(2048 - 21)}`],
  ])("%s: %j", (_label, raw, url) => {
    expect(checkRedirectUrl(raw, ALLOWED)).toEqual({ ok: true, url });
  });

  it.each([
    ["list entry in upper case", ["SHOP.EXAMPLE"], "https://shop.example/", true],
    ["one of several entries", ["a.example", "shop.example"], "https://shop.example/", true],
    ["entry with port, same port", ["localhost:3000"], "http://localhost:3000/cb", true],
    ["entry with port, other port", ["localhost:3000"], "http://localhost:3001/cb", false],
    ["entry with default port", ["shop.example:443"], "https://shop.example/cb", true],
    ["entry with default port, http", ["shop.example:443"], "http://shop.example/cb", false],
    ["IPv6 entry", ["[::1]"], "http://[::1]:8080/", true],
    ["IPv4 entry", ["127.0.0.1"], "http://127.0.0.1/", true],
    ["empty list allows nothing", [], "https://shop.example/", false],
  ])("%s", (_label, hosts, raw, ok) => {
    expect(checkRedirectUrl(raw, hosts).ok).toBe(ok);
  });
});

describe("interface 4.1.1 redirectUrl: without an allowed list only the shape is checked", () => {
  it.each([
    "https://any.example/cb",
    "http://localhost:3000/return",
    "https://evilshop.example",
    "https://evil.com#@shop.example",
    "https://xn--shop-example-xyz.example/",
  ])("accepts %j", (raw) => {
    expect(checkRedirectUrl(raw, null).ok).toBe(true);
  });

  it.each(BYPASSES)("%s: %j is refused for its %s", (_label, raw, refusedFor) => {
    expect(checkRedirectUrl(raw, null).ok).toBe(refusedFor === "host");
  });
});

describe("interface 4.1.1 redirectUrl: result addresses", () => {
  it.each([
    ["https://shop.example/", "success", "https://shop.example/payment/success"],
    ["https://shop.example/", "failure", "https://shop.example/payment/failure"],
    ["https://shop.example/shop/", "success", "https://shop.example/shop/payment/success"],
    ["https://shop.example/shop", "failure", "https://shop.example/shop/payment/failure"],
    ["https://shop.example/cb?order=42", "success", "https://shop.example/cb/payment/success?order=42"],
    ["https://shop.example/cb#top", "success", "https://shop.example/cb/payment/success#top"],
    ["http://shop.example:8080/a/b", "failure", "http://shop.example:8080/a/b/payment/failure"],
  ] as const)("%j + %s -> %j", (url, outcome, expected) => {
    expect(toRedirectResultUrl(url, outcome)).toBe(expected);
  });
});
