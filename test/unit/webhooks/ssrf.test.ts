import { describe, expect, it } from "vitest";
import { blockedCategory, checkWebhookTarget, parseIPv6, type ResolveHost } from "../../../src/domain/webhooks/ssrf";

const noDns: ResolveHost = async (host) => {
  throw new Error(`DNS must not be asked for ${host}`);
};
const dnsAnswering =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("product 11 SSRF: literal addresses are checked without DNS", () => {
  it.each([
    ["http://127.0.0.1/hooks", "loopback"],
    ["http://127.255.0.9/", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["http://[::1]:8080/", "loopback"],
    ["http://10.1.2.3/", "private"],
    ["http://172.16.0.1/", "private"],
    ["http://172.31.255.255/", "private"],
    ["http://192.168.1.1/", "private"],
    ["http://[fc00::1]/", "private"],
    ["http://[fd12:3456::1]/", "private"],
    ["http://169.254.169.254/latest/meta-data", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://[febf:ffff::1]/", "link-local"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[::ffff:10.0.0.1]/", "private"],
    ["http://[::ffff:a9fe:a9fe]/", "link-local"],
    ["http://[::ffff:0.0.0.0]/", "unspecified"],
    ["http://[64:ff9b::192.168.0.1]/", "NAT64"],
    ["http://100.64.0.1/", "shared (CGNAT)"],
    ["http://100.127.255.255/", "shared (CGNAT)"],
    ["https://224.0.0.1/", "multicast"],
    ["https://255.255.255.255/", "reserved"],
  ])("%s is refused (%s)", async (url, category) => {
    const result = await checkWebhookTarget(url, { allowPrivate: false, resolve: noDns });
    expect(result).toMatchObject({ ok: false, reason: "blocked_address" });
    expect(result.ok === false && result.message).toContain(category);
  });

  it.each([
    "https://8.8.8.8/hooks",
    "http://172.15.255.255/",
    "http://172.32.0.0/",
    "http://100.63.255.255/",
    "http://100.128.0.0/",
    "http://192.169.0.1/",
    "http://169.253.255.255/",
    "http://[2001:4860:4860::8888]/",
    "http://[::ffff:8.8.8.8]/",
  ])("%s is allowed", async (url) => {
    expect(await checkWebhookTarget(url, { allowPrivate: false, resolve: noDns })).toMatchObject({ ok: true });
  });
});

describe("product 23 SSRF: every special-purpose range of the IANA registries is refused", () => {
  it.each([
    ["192.0.0.1", "IETF protocol assignments"],
    ["192.0.0.170", "IETF protocol assignments"],
    ["192.0.2.10", "documentation (TEST-NET-1)"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.254", "benchmarking"],
    ["198.51.100.7", "documentation (TEST-NET-2)"],
    ["203.0.113.9", "documentation (TEST-NET-3)"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["192.31.196.1", "AS112"],
    ["192.175.48.1", "AS112"],
    ["192.52.193.1", "AMT"],
    ["64:ff9b::808:808", "NAT64"],
    ["64:ff9b:1::1", "NAT64 (local use)"],
    ["2002:808:808::1", "6to4"],
    ["2001:0:4136:e378::1", "Teredo"],
    ["2001:2::1", "IETF protocol assignments"],
    ["2001:20::1", "IETF protocol assignments"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["100::1", "discard-only"],
    ["2620:4f:8000::1", "AS112"],
    ["5f00::1", "SRv6 SIDs"],
    ["::8.8.8.8", "reserved"],
    ["4000::1", "reserved"],
  ])("%s is refused (%s), before any connection", async (address, category) => {
    expect(blockedCategory(address)).toBe(category);
    const host = address.includes(":") ? `[${address}]` : address;
    const result = await checkWebhookTarget(`https://${host}/hooks`, { allowPrivate: false, resolve: noDns });
    expect(result).toMatchObject({ ok: false, reason: "blocked_address" });
  });

  it.each(["8.8.8.8", "1.1.1.1", "192.0.1.1", "198.17.255.255", "198.20.0.1", "203.0.114.1", "2a00:1450:4001::1", "2001:4860:4860::8888"])(
    "%s (global unicast) is allowed",
    (address) => expect(blockedCategory(address)).toBeNull(),
  );
});

describe("product 11 SSRF: host names are judged by every resolved address", () => {
  it.each([
    [["93.184.216.34"], true],
    [["93.184.216.34", "2606:2800:220:1::1"], true],
    [["93.184.216.34", "10.0.0.7"], false],
    [["2606:2800:220:1::1", "::ffff:192.168.0.10"], false],
    [["fe80::1%eth0"], false],
    [["not-an-ip"], false],
  ])("answers %j -> ok %s", async (addresses, ok) => {
    const result = await checkWebhookTarget("https://hooks.partner.example/x", {
      allowPrivate: false,
      resolve: dnsAnswering(...addresses),
    });
    expect(result.ok).toBe(ok);
  });

  it.each([
    ["a failing lookup", noDns],
    ["an empty answer", dnsAnswering()],
  ])("%s is unresolvable", async (_name, resolve) => {
    const result = await checkWebhookTarget("https://hooks.partner.example/x", { allowPrivate: false, resolve });
    expect(result).toMatchObject({ ok: false, reason: "unresolvable" });
  });

  it("real DNS: localhost resolves to loopback and is refused", async () => {
    const result = await checkWebhookTarget("http://localhost:9000/hooks", { allowPrivate: false });
    expect(result).toMatchObject({ ok: false, reason: "blocked_address" });
  });
});

describe("product 11 SSRF: schemes and --allow-private-webhooks", () => {
  it.each([
    ["ftp://hooks.example.com/", "unsupported_scheme"],
    ["file:///etc/passwd", "unsupported_scheme"],
    ["javascript:alert(1)", "unsupported_scheme"],
    ["not a url", "invalid_url"],
    ["/relative/hooks", "invalid_url"],
  ])("%s -> %s, even when private targets are allowed", async (url, reason) => {
    for (const allowPrivate of [false, true]) {
      expect(await checkWebhookTarget(url, { allowPrivate, resolve: noDns })).toMatchObject({ ok: false, reason });
    }
  });

  it.each(["http://127.0.0.1:9000/hooks", "http://localhost/hooks", "http://[::1]/", "http://10.0.0.1/"])(
    "allowPrivate lets %s through without any lookup",
    async (url) => {
      expect(await checkWebhookTarget(url, { allowPrivate: true, resolve: noDns })).toEqual({ ok: true, address: null });
    },
  );
});

describe("product 11 SSRF: address parsing", () => {
  it.each([
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["2001:db8::8:800:200c:417a", [0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a]],
    ["::ffff:1.2.3.4", [0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]],
    ["1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]],
  ])("parses %s", (text, groups) => {
    expect(parseIPv6(text)).toEqual(groups);
  });

  it.each(["1:2:3", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8", "12345::", "1.2.3.4::", "::1.2.3"])(
    "refuses malformed %s",
    (text) => {
      expect(parseIPv6(text)).toBeNull();
      expect(blockedCategory(text)).toBe("unparseable");
    },
  );
});
