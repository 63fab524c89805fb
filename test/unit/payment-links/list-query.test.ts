import { describe, expect, it } from "vitest";
import { hasMoreAfter, parseIsoInstant, parseLinkListQuery } from "../../../src/domain/payment-links/list-query";
import { ApiError } from "../../../src/errors";

const parse = (q: string) => parseLinkListQuery(new URLSearchParams(q));
const refusal = (q: string) => {
  try {
    parse(q);
  } catch (e) {
    if (e instanceof ApiError) return `${e.code} ${e.message}`;
    throw e;
  }
  return "accepted";
};

describe("interface 4.2 query: defaults and clamping", () => {
  it("defaults: no filter, page 0, size 20", () => {
    expect(parse("")).toEqual({
      statuses: null,
      minAmount: null,
      maxAmount: null,
      createdFromMs: null,
      createdToMs: null,
      page: 0,
      size: 20,
    });
  });

  it.each([
    ["page=-1", 0, 20],
    ["page=-99999999999999999999", 0, 20],
    ["page=-0", 0, 20],
    ["size=1", 0, 1],
    ["size=200", 0, 200],
    ["size=0", 0, 1],
    ["size=1000", 0, 200],
    ["page=7&size=50", 7, 50],
    ["page=007", 7, 20],
  ])("%s -> page %d size %d", (q, page, size) => {
    expect(parse(q)).toMatchObject({ page, size });
  });

  it.each([
    ["page=x", "validation_error page: must be an integer"],
    ["size=1.0", "validation_error size: must be an integer"],
    ["page=1&page=1", "validation_error page: must be given at most once"],
    ["page=1001&size=100", "validation_error page: page * size must be <= 100000"],
    ["status=done", "validation_error status: must be one of pending, launched, initiated, completed, expired, failed, cancelled"],
    ["minAmount=9007199254740992", "validation_error minAmount: must be a safe integer"],
    ["createdTo=2026-11-20T09:00:00", expect.stringMatching(/^validation_error createdTo: must be an ISO 8601 date-time/)],
  ])("%s is refused: %s", (q, message) => {
    expect(refusal(q)).toEqual(message);
  });

  it("statuses are de-duplicated; amounts may be negative or cross (they then match nothing)", () => {
    expect(parse("status=failed&status=failed&status=pending")).toMatchObject({ statuses: ["failed", "pending"] });
    expect(parse("minAmount=-5&maxAmount=-10")).toMatchObject({ minAmount: -5, maxAmount: -10 });
  });
});

describe("interface 4.2 createdFrom / createdTo: ISO 8601 with a zone", () => {
  const T = Date.UTC(2026, 10, 20, 9, 0, 0);
  it.each([
    ["2026-11-20T09:00:00Z", T],
    ["2026-11-20T09:00:00.000Z", T],
    ["2026-11-20t09:00:00z", T],
    ["2026-11-20T09:00Z", T],
    ["2026-11-20T12:00:00+03:00", T],
    ["2026-11-20T12:00:00+0300", T],
    ["2026-11-20T12:00:00 03:00", T],
    ["2026-11-20T06:30:00-02:30", T],
    ["2026-11-20T09:00:00.5Z", T + 500],
    ["2026-11-20T09:00:00,25Z", T + 250],
    ["2026-11-20T09:00:00.123Z", T + 123],
    ["2026-11-20T09:00:00.1230Z", T + 123],
    ["2026-11-20T09:00:00.1231Z", T + 124], // sub-ms rounds up: same rows for >= and <
    ["2024-02-29T00:00:00Z", Date.UTC(2024, 1, 29)],
    ["1970-01-01T00:00:00Z", 0],
  ])("%s -> %d", (text, ms) => {
    expect(parseIsoInstant(text)).toBe(ms);
  });

  it.each([
    "2026-11-20",
    "2026-11-20T09:00:00",
    "2026-11-20 09:00:00Z",
    "2026-11-20T9:00:00Z",
    "2025-02-29T00:00:00Z",
    "2026-11-31T00:00:00Z",
    "2026-11-20T24:00:00Z",
    "2026-11-20T23:60:00Z",
    "2026-11-20T23:59:60Z",
    "2026-11-20T09:00:00+24:00",
    "2026-11-20T09:00:00.1234567890Z",
    "+2026-11-20T09:00:00Z",
    "now",
    "",
    "1763629200000",
  ])("%j is refused", (text) => {
    expect(parseIsoInstant(text)).toBeNull();
  });
});

describe("product 16 hasMore", () => {
  it.each([
    [20, 0, 20, true],
    [19, 0, 20, false],
    [0, 0, 20, false],
    [200, 499, 200, true], // next page starts at 100000, still inside
    [3, 33333, 3, false], // next page would start at 100002: a full page at the horizon
    [1, 99999, 1, true],
    [1, 100000, 1, false],
  ])("%d items on page %d of size %d -> %s", (items, page, size, more) => {
    expect(hasMoreAfter(items, page, size)).toBe(more);
  });
});
