import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { verifyGarantiCallback } from "../../../../src/bank/garanti/callback";
import type { GarantiConfig } from "../../../../src/bank/garanti/config";
import {
  callbackHash,
  type FormHashInput,
  type HashDataInput,
  hashData,
  securityData,
  secure3dHash,
  secure3dHashPlaintext,
} from "../../../../src/bank/garanti/crypt";
import { formOf } from "../../../../src/bank/garanti/form";
import { encodeFormText } from "../../../../src/bank/form-bytes";
import { requestTree } from "../../../../src/bank/garanti/requests";
import { readXml, writeXmlText, type XmlTree, xmlText } from "../../../../src/bank/garanti/xml";
import { sensitive } from "../../../../src/sensitive";

// Issue 31 acceptance: every vector of the project's copy of garanti-vectors.json (see SOURCES.md)
// reproduced byte for byte, plus the negative cases of the callback check.

type Vector = {
  id: string;
  kind: string;
  account?: Record<string, string>;
  password?: string;
  storeKey?: string;
  input: Record<string, string>;
  inputs: Record<string, string>;
  fields: Record<string, string>;
  plaintext?: string;
  expected: string;
};

const FILE = JSON.parse(readFileSync(new URL("./garanti-vectors.json", import.meta.url), "utf8")) as {
  account: Record<string, string>;
  vectors: Vector[];
};
const byId = (id: string): Vector => FILE.vectors.find((v) => v.id === id) as Vector;
const ofKind = (kind: string) => FILE.vectors.filter((v) => v.kind === kind);
const ACC = FILE.account;

const config = (over: Partial<GarantiConfig> = {}): GarantiConfig => ({
  model: "3d",
  gateUrl: "https://sanalposprovtest.garantibbva.com.tr/servlet/gt3dengine",
  apiUrl: "https://sanalposprovtest.garantibbva.com.tr/VPServlet",
  merchantId: ACC.merchantId as string,
  terminalId: ACC.terminalId as string,
  provUserId: ACC.provUserId as string,
  provPassword: ACC.provPassword as string,
  refundUserId: ACC.refundUserId as string,
  refundPassword: ACC.refundPassword as string,
  storeKey: ACC.storeKey as string,
  mode: "TEST",
  timeoutMs: 30_000,
  ...over,
});

describe("issue 31: SecurityData, secure3dhash and HashData reproduce every vector", () => {
  it("G-SD1: SecurityData pads the terminal id to 9 digits", () => {
    const v = byId("G-SD1");
    expect(securityData(v.input.password as string, v.input.terminalId as string)).toBe(v.expected);
  });

  it.each(ofKind("secure3dhash").map((v) => [v.id, v] as const))("%s: secure3dhash and its plaintext", (_id, v) => {
    expect(secure3dHashPlaintext(v.input as unknown as FormHashInput, ACC.storeKey as string, ACC.provPassword as string)).toBe(
      v.plaintext,
    );
    expect(secure3dHash(v.input as unknown as FormHashInput, ACC.storeKey as string, ACC.provPassword as string)).toBe(v.expected);
  });

  it.each(ofKind("3d-form").map((v) => [v.id, v] as const))("%s: the form's hash, fields outside it unhashed", (_id, v) => {
    expect(secure3dHash(v.inputs as unknown as FormHashInput, ACC.storeKey as string, ACC.provPassword as string)).toBe(v.expected);
  });

  it("kasa's form has the bank's twenty fields in G-FORM2's order, and signs them like G-3D2", () => {
    const v = byId("G-3D2").input as Record<string, string>;
    const fields = formOf(config(), {
      attemptId: v.orderid as string,
      amount: Number(v.txnamount),
      installment: 1,
      card: { pan: sensitive("5555444433332222"), expireMonth: sensitive("01"), expireYear: sensitive("22"), cv2: sensitive("123") },
      callbackUrl: v.successurl as string,
      nowMs: 0,
    });
    expect(Object.keys(fields)).toEqual([...Object.keys(byId("G-FORM2").inputs as object), "secure3dhash"]);
    expect(String((fields.secure3dhash as { reveal(): string }).reveal())).toBe(byId("G-3D2").expected);
  });

  it.each(ofKind("HashData").map((v) => [v.id, v] as const))("%s: HashData with the password of its type", (_id, v) => {
    const password = v.password?.startsWith("refund") ? (ACC.refundPassword as string) : (ACC.provPassword as string);
    expect(hashData(v.input as unknown as HashDataInput, password)).toBe(v.expected);
  });
});

describe("issue 31: the GVPSRequest bytes", () => {
  it.each(ofKind("GVPSRequest-xml").map((v) => [v.id, v] as const))("%s: the writer's bytes", (_id, v) => {
    expect(writeXmlText("GVPSRequest", v.input as unknown as XmlTree)).toBe(v.expected);
  });

  it("G-XML2: kasa's own sales request for the mapper's inputs is that document", () => {
    const tree = requestTree(config({ mode: "TEST" }), {
      type: "sales",
      orderId: "2020110828BC",
      amount: "100.25",
      installment: "",
      ip: "127.0.0.1",
      secure3d: { cavv: "cavv", eci: "100000005eci", xid: "100000005xid", md: "1" },
    });
    expect(writeXmlText("GVPSRequest", tree)).toBe(byId("G-XML2").expected);
  });

  it("void and refund go as the refund user, with the sale's RetrefNum (G-HD6's HashData)", () => {
    const tree = requestTree(config(), {
      type: "void",
      orderId: "2020110828BC",
      amount: "100",
      installment: "",
      ip: "127.0.0.1",
      originalRetrefNum: "831803579226",
    });
    const doc = readXml(new TextEncoder().encode(writeXmlText("GVPSRequest", tree)));
    expect(xmlText(doc, "Terminal/ProvUserID")).toBe("PROVRFN");
    expect(xmlText(doc, "Terminal/HashData")).toBe(byId("G-HD6").expected);
    expect(xmlText(doc, "Transaction/OriginalRetrefNum")).toBe("831803579226");
    expect(xmlText(doc, "Transaction/CardholderPresentCode")).toBe("0");
  });

  it("the reader takes one well-formed document and nothing else", () => {
    const good = byId("G-XML2").expected;
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(xmlText(readXml(bytes(good)), "Transaction/Secure3D/TxnID")).toBe("100000005xid");
    expect(readXml(bytes(good.slice(0, good.indexOf("<Amount>") + 5)))).toBeNull();
    expect(readXml(bytes("<html><body>Service Unavailable</body>"))).toBeNull();
    expect(readXml(Uint8Array.from([0x00, 0xff, 0x1f, 0x8b, 0x3c, 0xfe]))).toBeNull();
    expect(readXml(bytes("<A></A><B></B>"))).toBeNull();
    expect(readXml(bytes("<A>&bogus;</A>"))).toBeNull();
  });
});

const CALLBACKS = ofKind("callback-hash");

/** A vector's callback as the browser posts it, with the changes applied (null drops a field). */
function posted(v: Vector, change: Record<string, string | null> = {}, extra: Array<[string, string]> = []): Uint8Array {
  const fields = Object.entries({ ...v.fields, ...change }).filter(([, value]) => value !== null) as Array<[string, string]>;
  return new TextEncoder().encode(encodeFormText([...fields, ...extra]));
}

const contextOf = (v: Vector) => ({
  attemptId: v.fields.oid as string,
  amount: Number(v.fields.txnamount),
  installment: Number(v.fields.txninstallmentcount || "1"),
  nowMs: 0,
});

const verify = (v: Vector, body: Uint8Array, over: Partial<GarantiConfig> = {}) =>
  verifyGarantiCallback(config({ storeKey: v.storeKey as string, ...over }), body, contextOf(v));

describe("issue 31: the callback hash reproduces every vector and kasa accepts the genuine callbacks", () => {
  it.each(CALLBACKS.map((v) => [v.id, v] as const))("%s: hash over the named values, accepted", (_id, v) => {
    const names = (v.fields.hashparams as string).split(":").filter((n) => n !== "");
    const values = names.map((n) => new TextEncoder().encode(v.fields[n] ?? ""));
    expect(callbackHash(values, v.storeKey as string)).toBe(v.expected);
    const result = verify(v, posted(v));
    expect(result).toMatchObject({ ok: true, authenticated: v.fields.mdstatus === "1" });
  });

  it("G-CB1: the profile carries the 3D proof for the provision and no card data", () => {
    const v = byId("G-CB1");
    const result = verify(v, posted(v));
    if (!result.ok) throw new Error(result.reason);
    expect(JSON.parse(result.bankProfile)).toEqual({
      model: "3d",
      md: v.fields.md,
      xid: v.fields.xid,
      eci: "02",
      cavv: v.fields.cavv,
      ip: "172.26.0.1",
    });
    expect(result.bankProfile).not.toContain("1173");
  });
});

describe("issue 31: a callback that is not the bank's own, or not this attempt's, is refused", () => {
  const v = byId("G-CB1");
  it.each([
    ["mdstatus emptied (the crypt test's own negative)", { mdstatus: "" }],
    ["mdstatus changed", { mdstatus: "2" }],
    ["no hash", { hash: null }],
    ["an empty hash", { hash: "" }],
    ["a hash one character off", { hash: `${(v.fields.hash as string).slice(0, -1)}F` }],
    ["hashparams naming fewer fields", { hashparams: "clientid:oid:authcode:procreturncode:mdstatus:cavv:eci:md:rnd:" }],
    ["hashparams with another case", { hashparams: "clientid:oid:authcode:procreturncode:response:mdStatus:cavv:eci:md:rnd:" }],
    ["no hashparams", { hashparams: null }],
    ["an unsigned echo of another amount", { txnamount: "100" }],
    ["an unsigned echo of another currency", { txncurrencycode: "840" }],
    ["an unsigned echo of another installment count", { txninstallmentcount: "3" }],
    ["an unsigned echo of another model", { secure3dsecuritylevel: "3D_PAY" }],
    ["an unsigned echo of another order", { orderid: "2023100354BC" }],
    ["an unsigned echo of another terminal", { terminalid: "30691299" }],
  ] as const)("%s", (_name, change) => {
    expect(verify(v, posted(v, change as Record<string, string | null>))).toMatchObject({ ok: false });
  });

  it("an echo the bank leaves out is not required (G-CB2 has no txninstallmentcount); the signed oid is", () => {
    expect(verify(v, posted(v, { txnamount: null, orderid: null }))).toMatchObject({ ok: true });
    expect(verify(v, posted(v, { oid: null }))).toMatchObject({ ok: false });
  });

  it("a field posted twice, even with the same value", () => {
    expect(verify(v, posted(v, {}, [["mdstatus", "1"]]))).toMatchObject({ ok: false, reason: "a field is posted twice" });
  });

  it("a signed value moved into a neighbour (response=0 and mdstatus dropped from the list) does not pass", () => {
    const failed = byId("G-CB3");
    const moved = posted(failed, {
      hashparams: "clientid:oid:authcode:procreturncode:response:cavv:eci:md:rnd:",
      response: "0",
      mdstatus: "1",
    });
    expect(verify(failed, moved)).toMatchObject({ ok: false, reason: "hashparams is not the bank's list" });
  });

  it("a genuine callback for another attempt, or another terminal, or another store key", () => {
    expect(verifyGarantiCallback(config(), posted(v), { ...contextOf(v), attemptId: "2023100354BC" })).toMatchObject({ ok: false });
    expect(verifyGarantiCallback(config(), posted(v), { ...contextOf(v), amount: 102 })).toMatchObject({ ok: false });
    expect(verify(v, posted(v), { terminalId: "30691299" })).toMatchObject({ ok: false });
    expect(verify(v, posted(v), { storeKey: "12345679" })).toMatchObject({ ok: false });
    expect(verify(v, posted(v), { model: "3d_pay" })).toMatchObject({ ok: false });
  });

  it.each(ofKind("callback-hash-legacy").map((x) => [x.id, x] as const))(
    "%s: the legacy base64 SHA-1 hash is reproduced by reference code and refused by kasa",
    (_id, legacy) => {
      const sha1 = createHash("sha1")
        .update(legacy.plaintext as string, "latin1")
        .digest("base64");
      expect(sha1).toBe(legacy.expected);
      const result = verify(legacy, posted(legacy), { model: legacy.fields.secure3dsecuritylevel === "3D_PAY" ? "3d_pay" : "3d" });
      expect(result).toMatchObject({ ok: false, reason: "not a SHA-512 hash (apiversion 512)" });
    },
  );
});
