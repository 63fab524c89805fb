import { describe, expect, it } from "vitest";
import { encodeFormBytes, parseFormBytes } from "../../../../src/bank/form-bytes";
import { decodeIso88599, encodeIso88599 } from "../../../../src/bank/iso-8859-9";
import { readXml, writeXml } from "../../../../src/bank/est/xml";

// Product 17 / est.md 2.5: callbacks are hashed over raw octets; the XML is ISO-8859-9.

describe("form bodies as bytes", () => {
  it("splits, turns + into space and percent-decodes to octets, never to text", () => {
    const body = new TextEncoder().encode("a=1+2&EXTRA_CARDISSUER=Z%DDRAAT&empty=&bare&x=%zz");
    const fields = parseFormBytes(body);
    expect(fields.map(([n]) => n)).toEqual(["a", "EXTRA_CARDISSUER", "empty", "bare", "x"]);
    expect(Buffer.from(fields[1]![1]).toString("hex")).toBe("5add52414154");
    expect(decodeIso88599(fields[1]![1])).toBe("ZİRAAT");
    expect(new TextDecoder().decode(fields[0]![1])).toBe("1 2");
    expect(new TextDecoder().decode(fields[4]![1])).toBe("%zz");
  });
  it("round-trips through the simulator's encoder", () => {
    const fields: Array<[string, Uint8Array]> = [
      ["name", encodeIso88599("Şekerbank İşlem ğüı")],
      ["hash", new TextEncoder().encode("a+b/c==")],
    ];
    const again = parseFormBytes(new TextEncoder().encode(encodeFormBytes(fields)));
    expect(again.map(([n, v]) => [n, decodeIso88599(v)])).toEqual([
      ["name", "Şekerbank İşlem ğüı"],
      ["hash", "a+b/c=="],
    ]);
  });
});

describe("ISO-8859-9", () => {
  it.each([
    ["Ğ", 0xd0],
    ["İ", 0xdd],
    ["Ş", 0xde],
    ["ğ", 0xf0],
    ["ı", 0xfd],
    ["ş", 0xfe],
    ["ç", 0xe7],
    ["Ö", 0xd6],
  ])("%s is byte %i", (ch, byte) => {
    expect([...encodeIso88599(ch)]).toEqual([byte]);
    expect(decodeIso88599(Uint8Array.of(byte))).toBe(ch);
  });
  it("writes characters outside the charset as ?", () => expect(decodeIso88599(encodeIso88599("€Ý"))).toBe("??"));
});

describe("CC5Response reading", () => {
  const ok = new TextEncoder().encode(
    '<?xml version="1.0" encoding="ISO-8859-9"?>\n<CC5Response>\n  <OrderId>o1</OrderId>\n  <ErrMsg></ErrMsg>\n  <Empty/>\n  <Extra>\n    <CARDISSUER>Z&#x130;RAAT &amp; Co</CARDISSUER>\n  </Extra>\n</CC5Response>\n',
  );
  it("reads elements, one nested level, entities and empty elements", () => {
    expect(readXml(ok, "CC5Response")).toEqual({ OrderId: "o1", ErrMsg: "", Empty: "", Extra: { CARDISSUER: "ZİRAAT & Co" } });
  });
  it("round-trips what the writer writes, Turkish text included", () => {
    const body = writeXml("CC5Response", { ErrMsg: "İptal edilmeye uygun satış işlemi bulunamadı.", Extra: { A: "<1>" } });
    expect(readXml(body, "CC5Response")).toEqual({ ErrMsg: "İptal edilmeye uygun satış işlemi bulunamadı.", Extra: { A: "<1>" } });
  });
  it.each([
    ["HTML", "<html><body>Service Unavailable</body></html>"],
    ["truncated", '<?xml version="1.0"?><CC5Response><OrderId>o1</OrderId><Resp'],
    ["garbage", "\u0000\u0001garbage"],
    ["another root", "<CC5Request><OrderId>o1</OrderId></CC5Request>"],
    ["unclosed child", "<CC5Response><OrderId>o1</CC5Response>"],
    ["two levels of nesting", "<CC5Response><Extra><A><B>1</B></A></Extra></CC5Response>"],
    ["a bare ampersand", "<CC5Response><ErrMsg>a & b</ErrMsg></CC5Response>"],
    ["empty", ""],
  ])("answers null for %s", (_name, text) => expect(readXml(new TextEncoder().encode(text), "CC5Response")).toBeNull());
  it("accepts the DATA= form the vendor sample posts", () => {
    expect(readXml(new TextEncoder().encode("DATA=<CC5Request><Type>Void</Type></CC5Request>"), "CC5Request")).toEqual({ Type: "Void" });
  });
});
