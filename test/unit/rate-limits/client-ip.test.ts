import { describe, expect, it } from "vitest";
import { clientIp, rateKeyForIp, UNKNOWN_IP_KEY } from "../../../src/domain/rate-limits/client-ip";

describe("product 12: source-IP rate key", () => {
  it.each([
    ["1.2.3.4", "1.2.3.4"],
    [" 10.0.0.1 ", "10.0.0.1"],
    ["1.2.3.4:8080", "1.2.3.4"],
    ["255.255.255.255", "255.255.255.255"],
    ["0.0.0.0", "0.0.0.0"],
  ])("IPv4 %j -> %j", (raw, key) => {
    expect(rateKeyForIp(raw)).toBe(key);
  });

  it.each([
    ["::ffff:1.2.3.4", "1.2.3.4"],
    ["::FFFF:1.2.3.4", "1.2.3.4"],
    ["::ffff:0102:0304", "1.2.3.4"],
    ["0:0:0:0:0:ffff:1.2.3.4", "1.2.3.4"],
    ["[::ffff:1.2.3.4]:443", "1.2.3.4"],
    ["::ffff:192.168.1.200", "192.168.1.200"],
  ])("IPv4-mapped IPv6 %j counts as %j", (raw, key) => {
    expect(rateKeyForIp(raw)).toBe(key);
  });

  it.each([
    ["2001:db8:0:1::1", "2001:db8:0:1::/64"],
    ["2001:db8:0:1:ffff:ffff:ffff:ffff", "2001:db8:0:1::/64"],
    ["2001:0DB8:0000:0001:0000:0000:0000:0001", "2001:db8:0:1::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["2001:db8:1:2:3::", "2001:db8:1:2::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::", "0:0:0:0::/64"],
    ["1::2:3:4:5:6:7", "1:0:2:3::/64"],
    ["1:2:3:4:5:6:7::", "1:2:3:4::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["FE80::1%ETH0", "fe80:0:0:0::/64"],
    ["[2001:db8::1]:443", "2001:db8:0:0::/64"],
    ["[2001:db8::1]", "2001:db8:0:0::/64"],
    ["64:ff9b::1.2.3.4", "64:ff9b:0:0::/64"],
    ["::1.2.3.4", "0:0:0:0::/64"],
  ])("IPv6 %j is limited per /64 as %j", (raw, key) => {
    expect(rateKeyForIp(raw)).toBe(key);
  });

  it("every address of one /64 shares a key; the next /64 does not", () => {
    const a = rateKeyForIp("2001:db8:aaaa:1::1");
    expect(rateKeyForIp("2001:db8:aaaa:1:dead:beef:0:7")).toBe(a);
    expect(rateKeyForIp("2001:db8:aaaa:2::1")).not.toBe(a);
  });

  it.each([
    "",
    "localhost",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "01.2.3.4",
    "1.2.3.-1",
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    ":1:2:3:4:5:6:7",
    "12345::",
    "g::1",
    "::ffff:1.2.3.256",
    "1:2:3:4:5:6:7:1.2.3.4",
  ])("%j does not parse and shares the unknown key", (raw) => {
    expect(rateKeyForIp(raw)).toBe(UNKNOWN_IP_KEY);
  });
});

describe("product 12: client IP, X-Forwarded-For only with --trust-proxy", () => {
  it("without trustProxy the header is ignored", () => {
    expect(clientIp({ peer: "10.0.0.1", forwardedFor: "1.2.3.4", trustProxy: false })).toBe("10.0.0.1");
  });

  it("with trustProxy the right-most entry (appended by our proxy) is the client", () => {
    const forwardedFor = " 198.51.100.9 , 10.0.0.2, 203.0.113.7 ";
    expect(clientIp({ peer: "10.0.0.1", forwardedFor, trustProxy: true })).toBe("203.0.113.7");
    expect(clientIp({ peer: "10.0.0.1", forwardedFor: "2001:db8::1", trustProxy: true })).toBe("2001:db8::1");
  });

  it.each([undefined, null, "", "1.2.3.4, garbage", "1.2.3.4 , "])("with trustProxy and header %j the peer is used", (forwardedFor) => {
    expect(clientIp({ peer: "10.0.0.1", forwardedFor, trustProxy: true })).toBe("10.0.0.1");
  });

  it("no socket and no header gives the unknown key", () => {
    expect(rateKeyForIp(clientIp({ peer: undefined, trustProxy: false }))).toBe(UNKNOWN_IP_KEY);
  });
});
