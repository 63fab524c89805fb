import { describe, expect, it } from "vitest";
import { findSensitiveField, isSensitiveText } from "../../../src/domain/checks/sensitive-data";

describe("interface 4.1.2 sensitive_data_not_allowed: whole-value card number or IBAN", () => {
  it.each([
    ["Luhn-valid PAN", "4000001100000009", true],
    ["Luhn-valid PAN with spaces", "4000 0011 0000 0009", true],
    ["Luhn-valid PAN with hyphens", "4000-0011-0000-0009", true],
    ["15-digit PAN with mixed separators", "3782 822463-10005", true],
    ["Luhn-invalid 16 digits", "4000001100000008", false],
    ["PAN embedded in text", "Order 4000001100000009", false],
    ["PAN followed by text", "4000001100000009 paid", false],
    ["IBAN without spaces", "TR330006100519786457841326", true],
    ["IBAN with spaces", "TR33 0006 1005 1978 6457 8413 26", true],
    ["lowercase IBAN", "tr33 0006 1005 1978 6457 8413 26", true],
    ["foreign IBAN", "GB82 WEST 1234 5698 7654 32", true],
    ["IBAN with a wrong check", "TR34 0006 1005 1978 6457 8413 26", false],
    ["IBAN embedded in text", "Havale: TR330006100519786457841326", false],
    ["too short digits, Luhn-valid", "400000000002", false],
    ["short number", "1234", false],
    ["ordinary name", "Ayşe Yılmaz", false],
    ["ordinary item", "Kırmızı kazak, XL", false],
    ["empty", "", false],
    ["only separators", " - - ", false],
  ])("%s: %j -> %s", (_label, value, expected) => {
    expect(isSensitiveText(value)).toBe(expected);
  });

  it("names the first offending field in the order given", () => {
    const path = findSensitiveField([
      { path: "items[0].name", value: "Kazak" },
      { path: "items[0].note", value: null },
      { path: "items[1].name", value: "TR33 0006 1005 1978 6457 8413 26" },
      { path: "payerName", value: "4000 0011 0000 0009" },
    ]);
    expect(path).toBe("items[1].name");
  });

  it.each([
    ["no fields", []],
    [
      "absent and null values",
      [
        { path: "payerName", value: undefined },
        { path: "items[0].note", value: null },
      ],
    ],
    [
      "harmless values",
      [
        { path: "items[0].name", value: "Order 4000001100000009" },
        { path: "payerName", value: "Ali" },
      ],
    ],
  ])("returns null for %s", (_label, fields) => {
    expect(findSensitiveField(fields)).toBeNull();
  });
});

describe("product 23 / issue 15 item 8: the card and IBAN check sees through formatting", () => {
  it.each([
    ["zero-width space inside a PAN", "4000\u200b0011\u200b0000\u200b0009"],
    ["soft hyphen and word joiner (Unicode Cf)", "4000\u00ad0011\u20600000 0009"],
    ["dots", "4000.0011.0000.0009"],
    ["slashes", "4000/0011/0000/0009"],
    ["full-width digits", "４０００００１１０００００００９"],
    ["full-width digits with an ideographic space", "４０００\u3000００１１\u3000００００\u3000０００９"],
    ["IBAN with dots", "TR33.0006.1005.1978.6457.8413.26"],
    ["IBAN with a zero-width space", "TR33\u200b0006100519786457841326"],
    ["full-width IBAN", "ＴＲ３３０００６１００５１９７８６４５７８４１３２６"],
    ["IBAN with slashes and a BOM", "\ufeffTR33/0006/1005/1978/6457/8413/26"],
  ])("%s is caught", (_label, value) => {
    expect(isSensitiveText(value)).toBe(true);
  });

  it.each([
    ["a date with slashes", "12/34"],
    ["a version number", "1.2.3"],
    ["text with a zero-width space", "Kırmızı\u200bkazak"],
    ["full-width text", "ＸＬ beden"],
  ])("%s is not", (_label, value) => {
    expect(isSensitiveText(value)).toBe(false);
  });
});
