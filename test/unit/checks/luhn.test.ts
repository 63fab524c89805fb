import { describe, expect, it } from "vitest";
import { isLuhnValid, looksLikeCardNumber, stripSeparators } from "../../../src/domain/checks/luhn";

describe("product 6 handoff card data: isLuhnValid", () => {
  it.each([
    ["4000001100000009", true], // simulated bank test cards (product 6)
    ["5400006600000006", true],
    ["3400001400000004", true],
    ["378282246310005", true], // 15-digit Amex test number
    ["4000000000006", true], // 13 digits
    ["4000000000000000006", true], // 19 digits
    ["0", true],
    ["4000001100000008", false], // last digit off by one
    ["4000001100000019", false],
    ["", false],
    ["4000 0011 0000 0009", false], // separators are the caller's business
    ["40000011000000O9", false], // letter O
    ["４０００", false], // full-width digits are not ASCII digits
  ])("%j -> %s", (digits, expected) => {
    expect(isLuhnValid(digits)).toBe(expected);
  });
});

describe("interface 4.1.2 card-number pattern: looksLikeCardNumber", () => {
  it.each([
    ["4000001100000009", true],
    ["4000 0011 0000 0009", true],
    ["4000-0011-0000-0009", true],
    [" 4000 0011-0000 0009 ", true],
    ["4000\u00a00011\u00a00000\u00a00009", true], // NBSP from a copy-paste
    ["4000\t0011\n0000\r\n0009", true],
    ["4000–0011–0000–0009", true], // en dash
    ["4000000000006", true], // 13 digits
    ["4000000000000000006", true], // 19 digits
    ["400000000002", false], // Luhn-valid but only 12 digits
    ["40000000000000000002", false], // Luhn-valid but 20 digits
    ["4000001100000008", false], // Luhn-invalid 16 digits
    ["Order 4000001100000009", false], // embedded in other text
    ["4000001100000009 x", false],
    ["4000.0011.0000.0009", false], // dots are not a removed separator
    ["", false],
  ])("%j -> %s", (text, expected) => {
    expect(looksLikeCardNumber(text)).toBe(expected);
  });

  it("stripSeparators keeps everything but whitespace and dashes", () => {
    expect(stripSeparators(" a-b\u2010c\u2212d e\u00a0f.g ")).toBe("abcdef.g");
  });
});
