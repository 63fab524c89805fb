import { describe, expect, it } from "vitest";
import { formatTry } from "../../../src/domain/checks/money";
import { toLira } from "../../../src/lira";

describe("product 7 pages: formatTry (kuruş to Turkish lira text)", () => {
  it.each([
    [0, "0,00 TL"],
    [-0, "0,00 TL"],
    [1, "0,01 TL"],
    [10, "0,10 TL"],
    [99, "0,99 TL"],
    [100, "1,00 TL"],
    [12_345, "123,45 TL"],
    [123_456, "1.234,56 TL"],
    [100_000, "1.000,00 TL"],
    [99_999_999, "999.999,99 TL"],
    [100_000_000, "1.000.000,00 TL"],
    [-1, "-0,01 TL"],
    [-123_456, "-1.234,56 TL"],
    [Number.MAX_SAFE_INTEGER, "90.071.992.547.409,91 TL"],
    [-Number.MAX_SAFE_INTEGER, "-90.071.992.547.409,91 TL"],
    [123_456_789_012_345_678n, "1.234.567.890.123.456,78 TL"],
  ])("%s -> %j", (kurus, text) => {
    expect(formatTry(kurus)).toBe(text);
  });

  it.each([0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])("throws on %s", (kurus) => {
    expect(() => formatTry(kurus)).toThrow(RangeError);
  });
});

describe("toLira (kuruş to plain lira for transfer lists and EST amounts)", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [8801, "88.01"],
    [123456789, "1234567.89"],
    [Number.MAX_SAFE_INTEGER, "90071992547409.91"],
  ])("%d kuruş is %s", (kurus, text) => expect(toLira(kurus)).toBe(text));
  it.each([-1, 1.5, Number.MAX_SAFE_INTEGER + 1])("%d is refused", (kurus) => expect(() => toLira(kurus)).toThrow(RangeError));
});
