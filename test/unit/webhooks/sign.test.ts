import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deliveryHeaders, signBody, verifySignature } from "../../../src/domain/webhooks/sign";
import { sensitive } from "../../../src/sensitive";

// GitHub's published X-Hub-Signature-256 example: the same scheme (sha256=<hex HMAC of raw body>).
const GITHUB_SECRET = "It's a Secret to Everybody";
const GITHUB_PAYLOAD = "Hello, World!";
const GITHUB_SIGNATURE = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

describe("interface 6.3 signature", () => {
  it("matches GitHub's published X-Hub-Signature-256 example", () => {
    expect(signBody(GITHUB_PAYLOAD, GITHUB_SECRET)).toBe(GITHUB_SIGNATURE);
    expect(verifySignature(GITHUB_PAYLOAD, GITHUB_SECRET, GITHUB_SIGNATURE)).toBe(true);
  });

  it("accepts the secret as Sensitive<string> with the same result", () => {
    expect(signBody(GITHUB_PAYLOAD, sensitive(GITHUB_SECRET))).toBe(GITHUB_SIGNATURE);
  });

  it("hashes the body as UTF-8 bytes", () => {
    const body = '{"paymentCode":"ÇĞİÖŞÜ-₺"}';
    const expected = createHmac("sha256", "k").update(Buffer.from(body, "utf8")).digest("hex");
    expect(signBody(body, "k")).toBe(`sha256=${expected}`);
  });

  it.each<[string, string, string, string | null | undefined]>([
    ["a changed body", "Hello, World?", GITHUB_SECRET, GITHUB_SIGNATURE],
    ["another secret", GITHUB_PAYLOAD, "not the secret", GITHUB_SIGNATURE],
    ["a truncated header", GITHUB_PAYLOAD, GITHUB_SECRET, GITHUB_SIGNATURE.slice(0, -1)],
    ["a longer header", GITHUB_PAYLOAD, GITHUB_SECRET, `${GITHUB_SIGNATURE}0`],
    ["a header without the scheme", GITHUB_PAYLOAD, GITHUB_SECRET, GITHUB_SIGNATURE.slice("sha256=".length)],
    ["uppercase hex", GITHUB_PAYLOAD, GITHUB_SECRET, `sha256=${GITHUB_SIGNATURE.slice(7).toUpperCase()}`],
    ["a multi-byte header of the same length", GITHUB_PAYLOAD, GITHUB_SECRET, `${GITHUB_SIGNATURE.slice(0, -1)}é`],
    ["an empty header", GITHUB_PAYLOAD, GITHUB_SECRET, ""],
    ["a missing header", GITHUB_PAYLOAD, GITHUB_SECRET, undefined],
    ["a null header", GITHUB_PAYLOAD, GITHUB_SECRET, null],
  ])("refuses %s without throwing", (_name, body, secret, header) => {
    expect(verifySignature(body, secret, header)).toBe(false);
  });
});

describe("interface 6.3 delivery headers, product 11", () => {
  const body = '{"id":"evt_1","type":"webhook.test","occurredAt":"2025-03-01T09:30:00.999Z"}';
  const headers = deliveryHeaders({
    body,
    secret: "whsec_demo",
    deliveryId: "evt_1",
    occurredAtMs: Date.UTC(2025, 2, 1, 9, 30, 0, 999),
  });
  const signature = signBody(body, "whsec_demo");

  it("carries both header sets with identical values plus content type and user agent", () => {
    expect(headers).toEqual({
      "Content-Type": "application/json",
      "User-Agent": "kasa-webhooks/1",
      "X-Service-Signature": signature,
      "X-Service-Timestamp": "1740821400",
      "X-Service-Delivery-Id": "evt_1",
      "X-Legacy-Signature": signature,
      "X-Legacy-Timestamp": "1740821400",
      "X-Legacy-Delivery-Id": "evt_1",
    });
  });

  it("uses the epoch seconds of occurredAt (rounded down), not the send time", () => {
    const at = (ms: number) => deliveryHeaders({ body, secret: "s", deliveryId: "d", occurredAtMs: ms })["X-Service-Timestamp"];
    expect(at(1_740_821_400_000)).toBe("1740821400");
    expect(at(1_740_821_400_999)).toBe("1740821400");
    expect(at(999)).toBe("0");
  });

  it("signs exactly the body it is given, so the receiver can verify it", () => {
    expect(verifySignature(body, "whsec_demo", headers["X-Legacy-Signature"])).toBe(true);
  });
});
