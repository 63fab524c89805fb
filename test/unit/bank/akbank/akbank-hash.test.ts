import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { authHash, callbackHash, callbackPlaintext, formHash, formPlaintext, sameSignature } from "../../../../src/bank/akbank/crypt";
import { type Json, phpJson } from "../../../../src/bank/akbank/requests";

// Issue 34 acceptance: every vector of the project's copy of akbank-vectors.json (see SOURCES.md)
// reproduced byte for byte, plus negative cases.

type Vector = {
  id: string;
  kind: "form_hash" | "callback_hash" | "body_hash" | "request_body";
  status: "verified" | "derived";
  secretKey: string;
  input: Record<string, unknown>;
  expected: string | null;
  plaintext?: string;
  body?: string;
};

const FILE = JSON.parse(readFileSync(new URL("./akbank-vectors.json", import.meta.url), "utf8")) as { vectors: Vector[] };
const of = (kind: Vector["kind"]) => FILE.vectors.filter((v) => v.kind === kind);
const strings = (input: Record<string, unknown>) => input as Record<string, string | null>;

describe("AkbankPos form hash (22 fields, fixed order, no separator)", () => {
  it.each(of("form_hash").map((v) => [v.id, v] as const))("%s", (_id, v) => {
    expect(formPlaintext(strings(v.input))).toBe(v.plaintext);
    expect(formHash(v.secretKey, strings(v.input))).toBe(v.expected);
  });

  it("a changed amount, card field or hex-decoded key gives another hash", () => {
    const v = of("form_hash")[0]!;
    expect(formHash(v.secretKey, { ...strings(v.input), amount: "1.02" })).not.toBe(v.expected);
    expect(formHash(v.secretKey, { ...strings(v.input), cvv: "666" })).not.toBe(v.expected);
    const decoded = Buffer.from(v.secretKey, "hex").toString("latin1");
    expect(formHash(decoded, strings(v.input))).not.toBe(v.expected);
  });
});

describe("AkbankPos callback hash (the fields hashParams names)", () => {
  it.each(of("callback_hash").map((v) => [v.id, v] as const))("%s", (_id, v) => {
    const input = strings(v.input);
    const get = (n: string) => input[n] ?? undefined;
    expect(callbackPlaintext(input.hashParams as string, get)).toBe(v.plaintext);
    expect(callbackHash(v.secretKey, input.hashParams as string, get)).toBe(v.expected);
    expect(input.hash).toBe(v.expected);
  });

  it("an empty responseCode, a field outside hashParams and a shorter hashParams behave as the bank's", () => {
    const v = FILE.vectors.find((x) => x.id === "akbank_callback_3d_success")!;
    const input = strings(v.input);
    const params = input.hashParams as string;
    expect(callbackHash(v.secretKey, params, (n) => (n === "responseCode" ? "" : (input[n] ?? undefined)))).not.toBe(v.expected);
    // mdStatus is not named: it changes nothing, so it may never be trusted.
    expect(callbackHash(v.secretKey, params, (n) => (n === "mdStatus" ? "0" : (input[n] ?? undefined)))).toBe(v.expected);
    expect(callbackHash(v.secretKey, params.replace("+secureMd", ""), (n) => input[n] ?? undefined)).not.toBe(v.expected);
  });

  it("sameSignature compares whole values only", () => {
    expect(sameSignature("abc", "abc")).toBe(true);
    expect(sameSignature("abc", "abd")).toBe(false);
    expect(sameSignature("abc", "ab")).toBe(false);
  });
});

describe("AkbankPos auth-hash over the exact body octets", () => {
  it.each(of("body_hash").map((v) => [v.id, v] as const))("%s", (_id, v) => {
    const body = v.input.body as string;
    expect(authHash(v.secretKey, body)).toBe(v.expected);
    expect(authHash(v.secretKey, new TextEncoder().encode(body))).toBe(v.expected);
    expect(authHash(v.secretKey, body.replace("2024042053E2", "2024042053E3"))).not.toBe(v.expected);
    expect(authHash(v.secretKey, `${body} `)).not.toBe(v.expected);
  });

  it.each(of("request_body").map((v) => [v.id, v] as const))("%s: kasa's PHP-style JSON gives the same bytes", (_id, v) => {
    expect(phpJson(v.input as Json)).toBe(v.body);
    if (v.expected !== null) expect(authHash(v.secretKey, v.body as string)).toBe(v.expected);
  });

  it("phpJson escapes / and non-ASCII as PHP's json_encode does", () => {
    expect(phpJson({ a: "x/y", b: "BAŞARILI" })).toBe('{"a":"x\\/y","b":"BA\\u015eARILI"}');
  });
});
