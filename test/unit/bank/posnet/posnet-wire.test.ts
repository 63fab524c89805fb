import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formOf } from "../../../../src/bank/posnet/adapter";
import { toPosnetConfig } from "../../../../src/bank/posnet/config";
import { encodeIso88599 } from "../../../../src/bank/iso-8859-9";
import { xmlOfBody } from "../../../../src/bank/posnet/sim/api";
import { requestBody } from "../../../../src/bank/posnet/wire";
import { readXml, textOf, xmlText } from "../../../../src/bank/posnet/xml";

// Issue 33 acceptance: every request body and the 3D form of posnet-vectors.json (SOURCES.md)
// byte for byte; answers read as ISO-8859-9; anything but one posnetResponse is unreadable.

type Vector = { id: string; kind: string; input: Record<string, any>; expected?: any; computed?: any };
const FILE = JSON.parse(readFileSync(new URL("./posnet-vectors.json", import.meta.url), "utf8")) as { vectors: Vector[] };
const byId = (id: string) => FILE.vectors.find((v) => v.id === id)!;

const config = toPosnetConfig({
  apiUrl: "https://setmpos.ykb.com/PosnetWebService/XML",
  gateUrl: "https://setmpos.ykb.com/3DSWebService/YKBPaymentService",
  merchantId: "6706598320",
  terminalId: "67005551",
  posnetId: "27426",
  encKey: "10,10,10,10,10,10,10,10",
});

describe("issue 33: Posnet request bytes", () => {
  it.each(FILE.vectors.filter((v) => v.kind === "xml").map((v) => [v.id, v] as const))("%s", (_id, v) => {
    const { mid, tid, ...rest } = v.input;
    const bytes = xmlText("posnetRequest", { mid, tid, ...rest });
    expect(bytes).toBe(v.expected ?? v.computed);
    // On the wire: `xmldata=` and the percent-encoded bytes, which the bank (the simulator) decodes back.
    const body = requestBody({ merchantId: mid, terminalId: tid }, rest);
    expect(body).toMatch(/^xmldata=%3C%3Fxml/);
    // A base64 mac's `+`, `/` and `=` never travel raw (form decoding would turn `+` into a space).
    expect(body.slice("xmldata=".length)).not.toMatch(/[+/=]/);
    expect(new TextDecoder("latin1").decode(xmlOfBody(new TextEncoder().encode(body)))).toBe(bytes);
  });

  it("form_ykb_payment_service: the 3D form's fields in the bank's order", () => {
    const v = byId("form_ykb_payment_service");
    const r = v.input.oosRequestDataResponse;
    const fields = formOf(config, v.input.successUrl, r.data1, r.data2, r.sign);
    const expected = v.expected.inputs.map(([n, value]: [string, string]) => [n, n === "merchantReturnURL" ? v.input.successUrl : value]);
    expect(Object.entries(fields)).toEqual(expected);
    expect(config.gateUrl).toBe(v.expected.gateway);
  });
});

describe("issue 33: Posnet answers", () => {
  it("resp_invalid_mid_tid_ip: the ISO-8859-9 byte 0xFD reads as ı", () => {
    const v = byId("resp_invalid_mid_tid_ip");
    const latin1 = Uint8Array.from(Array.from(v.input.xml_latin1_view as string, (c) => c.charCodeAt(0)));
    const doc = readXml(latin1, "posnetResponse");
    expect({ approved: textOf(doc, "approved"), respCode: textOf(doc, "respCode"), respText: textOf(doc, "respText") }).toEqual(v.expected);
  });

  it("reads nested and repeated elements (agreement's transactions)", () => {
    const xml = encodeIso88599(
      "<posnetResponse><approved>1</approved><transactions><transaction><state>Sale</state></transaction><transaction><state>Return</state></transaction></transactions></posnetResponse>",
    );
    const doc = readXml(xml, "posnetResponse");
    expect(doc?.children[1]?.children.map((t) => textOf(t, "state"))).toEqual(["Sale", "Return"]);
  });

  it.each([
    ["HTML", "<html><body>Service Unavailable</body></html>"],
    ["truncated", "<?xml version='1.0'?><posnetResponse><approved>1</approved><oosTranData"],
    ["another root", "<posnetRequest><approved>1</approved></posnetRequest>"],
    ["a bare ampersand", "<posnetResponse><respText>A & B</respText></posnetResponse>"],
    ["unclosed inner element", "<posnetResponse><approved>1</posnetResponse>"],
    ["empty", ""],
  ])("unreadable: %s", (_name, text) => {
    expect(readXml(encodeIso88599(text), "posnetResponse")).toBeNull();
  });

  it("an element present twice is not trusted", () => {
    const doc = readXml(encodeIso88599("<posnetResponse><approved>0</approved><approved>1</approved></posnetResponse>"), "posnetResponse");
    expect(textOf(doc, "approved")).toBeNull();
  });
});
