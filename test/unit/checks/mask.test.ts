import { describe, expect, it } from "vitest";
import { maskPan, maskPayerName } from "../../../src/domain/checks/mask";
import { sensitive } from "../../../src/sensitive";

describe("interface 4.1.2 payerName masking: maskPayerName", () => {
  it.each([
    ["Ayşe Yılmaz", "Ay** Yı****"],
    ["İsmail Şahin", "İs**** Şa***"],
    ["ılgaz Çelik Öztürk", "ıl*** Çe*** Öz****"],
    ["Ğ Üİ", "Ğ Üİ"], // one-letter word keeps its one letter; two-letter word stays whole
    ["Al", "Al"],
    ["A", "A"],
    ["Ali", "Al*"],
    ["Gülşen  Doğan", "Gü****  Do***"], // double space kept
    [" Ayşe\tYılmaz\n", " Ay**\tYı****\n"], // leading, tab and trailing whitespace kept
    ["Ayşe\u00a0Yılmaz", "Ay**\u00a0Yı****"], // NBSP is whitespace too
    ["Ayşe-Nur Kaya", "Ay****** Ka**"], // a hyphenated name is one word
    ["Dr. Ali", "Dr* Al*"],
    ["I\u0307smail", "I\u0307s****"], // decomposed İ counts as one character
    ["Ay👩‍👩‍👧e", "Ay**"], // a ZWJ emoji sequence is one character
    ["", ""],
    ["   ", "   "],
  ])("%j -> %j", (name, masked) => {
    expect(maskPayerName(name)).toBe(masked);
  });

  it("preserves word length in characters", () => {
    const name = "Çağrı Gökçeoğlu";
    expect(Array.from(maskPayerName(name))).toHaveLength(Array.from(name).length);
  });
});

describe("product 5 maskedPan: maskPan", () => {
  it.each([
    ["4000001100000009", "400000******0009"],
    ["378282246310005", "378282******0005"],
    ["4000000000006", "400000******0006"],
    ["4000000000000000006", "400000******0006"],
  ])("%s -> %s", (pan, masked) => {
    expect(maskPan(pan)).toBe(masked);
  });

  it("accepts a Sensitive PAN without revealing it elsewhere", () => {
    expect(maskPan(sensitive("4000001100000009"))).toBe("400000******0009");
  });

  it.each(["", "400000110000", "40000011000000090000", "4000 0011 0000 0009", "400000110000000x"])("throws on a non-PAN %j", (pan) => {
    expect(() => maskPan(pan)).toThrow(RangeError);
  });
});
