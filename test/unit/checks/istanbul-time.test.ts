import { describe, expect, it } from "vitest";
import { civilFromDays, daysFromCivil, parseCivil } from "../../../src/domain/checks/civil-date";
import {
  ISTANBUL_OFFSET_MS,
  addDays,
  formatIstanbul,
  isoWeekKey,
  istanbulDate,
  istanbulDateStartMs,
  monthKey,
  nextIstanbulMidnightMs,
  startOfIstanbulDayMs,
  startOfIstanbulMonthMs,
  startOfIstanbulWeekMs,
} from "../../../src/domain/checks/istanbul-time";
import { toIso } from "../../../src/iso-time";

/** Tests may use Date: it is the independent reference the integer calendar is checked against. */
const ms = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;

describe("product 2 dates: Istanbul calendar date (UTC+3, no DST)", () => {
  it.each([
    ["2026-11-21T20:59:59.999Z", "2026-11-21"],
    ["2026-11-21T21:00:00.000Z", "2026-11-22"], // 00:00 Istanbul
    ["2026-06-30T21:00:00.000Z", "2026-07-01"], // summer: still +3
    ["2024-02-28T21:00:00.000Z", "2024-02-29"], // leap day
    ["2026-12-31T21:00:00.000Z", "2027-01-01"],
    ["1970-01-01T00:00:00.000Z", "1970-01-01"],
    ["1969-12-31T20:59:59.999Z", "1969-12-31"],
    ["1969-12-31T21:00:00.000Z", "1970-01-01"],
  ])("%s -> %s", (iso, date) => {
    expect(istanbulDate(ms(iso))).toBe(date);
  });

  it.each([
    ["2026-11-21T20:59:59.999Z", "2026-11-20T21:00:00.000Z", "2026-11-21T21:00:00.000Z"],
    ["2026-11-21T21:00:00.000Z", "2026-11-21T21:00:00.000Z", "2026-11-22T21:00:00.000Z"], // at midnight: next is a day later
    ["2026-11-22T12:00:00.000Z", "2026-11-21T21:00:00.000Z", "2026-11-22T21:00:00.000Z"],
    ["1969-12-31T22:00:00.000Z", "1969-12-31T21:00:00.000Z", "1970-01-01T21:00:00.000Z"],
  ])("%s: day starts %s, next midnight %s", (at, start, next) => {
    expect(startOfIstanbulDayMs(ms(at))).toBe(ms(start));
    expect(nextIstanbulMidnightMs(ms(at))).toBe(ms(next));
    expect(nextIstanbulMidnightMs(ms(at))).toBeGreaterThan(ms(at));
  });

  it.each([
    ["2026-11-22", "2026-11-21T21:00:00.000Z"],
    ["2027-01-01", "2026-12-31T21:00:00.000Z"],
  ])("%s starts at %s", (date, iso) => {
    expect(istanbulDateStartMs(date)).toBe(ms(iso));
  });

  it.each([
    ["2026-11-21", 1, "2026-11-22"],
    ["2026-11-30", 1, "2026-12-01"],
    ["2026-12-31", 1, "2027-01-01"],
    ["2024-02-28", 1, "2024-02-29"],
    ["2025-02-28", 1, "2025-03-01"],
    ["2100-02-28", 1, "2100-03-01"], // not a leap year
    ["2000-02-28", 1, "2000-02-29"], // leap year
    ["2026-03-01", -1, "2026-02-28"],
    ["2026-01-01", -365, "2025-01-01"],
    ["2026-11-21", 0, "2026-11-21"],
    ["2026-11-21", 400, "2027-12-26"],
  ])("addDays(%s, %i) -> %s", (date, n, expected) => {
    expect(addDays(date, n)).toBe(expected);
  });

  it.each(["2026-02-29", "2026-13-01", "2026-00-10", "2026-11-31", "2026-1-01", "26-11-21", "", "2026-11-21T00:00"])(
    "addDays refuses %j",
    (date) => {
      expect(() => addDays(date, 1)).toThrow(RangeError);
    },
  );

  it("day numbers round-trip and agree with Date across four centuries", () => {
    for (let days = -146_097; days <= 146_097 * 2; days += 37) {
      const civil = civilFromDays(days);
      expect(daysFromCivil(civil)).toBe(days);
      expect(parseCivil(istanbulDate(days * 86_400_000 - ISTANBUL_OFFSET_MS))).toEqual(civil);
    }
  });
});

describe("product 4 limit windows: ISO week and month keys in Istanbul time", () => {
  it.each([
    ["2026-11-22T12:00:00.000Z", "2026-W47", "2026-11"],
    ["2026-11-22T20:59:59.999Z", "2026-W47", "2026-11"], // Sunday 23:59 Istanbul
    ["2026-11-22T21:00:00.000Z", "2026-W48", "2026-11"], // Monday 00:00 Istanbul
    ["2026-11-30T21:00:00.000Z", "2026-W49", "2026-12"],
    ["2021-01-01T12:00:00.000Z", "2020-W53", "2021-01"], // Friday 1 Jan belongs to the previous year
    ["2024-12-30T12:00:00.000Z", "2025-W01", "2024-12"], // Monday 30 Dec belongs to the next year
    ["2026-12-31T12:00:00.000Z", "2026-W53", "2026-12"],
    ["2027-01-03T12:00:00.000Z", "2026-W53", "2027-01"],
    ["2027-01-03T21:00:00.000Z", "2027-W01", "2027-01"],
    ["2026-01-31T21:00:00.000Z", "2026-W05", "2026-02"], // UTC says January, Istanbul says February
  ])("%s -> %s, %s", (iso, week, month) => {
    expect(isoWeekKey(ms(iso))).toBe(week);
    expect(monthKey(ms(iso))).toBe(month);
  });

  it.each([
    ["2026-11-22T12:00:00.000Z", "2026-11-15T21:00:00.000Z", "2026-10-31T21:00:00.000Z"],
    ["2026-11-22T21:00:00.000Z", "2026-11-22T21:00:00.000Z", "2026-10-31T21:00:00.000Z"],
    ["2026-11-30T21:00:00.000Z", "2026-11-29T21:00:00.000Z", "2026-11-30T21:00:00.000Z"],
  ])("%s: week starts %s, month starts %s", (at, week, month) => {
    expect(startOfIstanbulWeekMs(ms(at))).toBe(ms(week));
    expect(startOfIstanbulMonthMs(ms(at))).toBe(ms(month));
  });

  it("every instant of an ISO week shares its key, and the next week has another", () => {
    const monday = ms("2026-11-22T21:00:00.000Z");
    const keys = new Set<string>();
    for (let t = monday; t < monday + 7 * 24 * HOUR; t += HOUR) keys.add(isoWeekKey(t));
    expect([...keys]).toEqual(["2026-W48"]);
    expect(isoWeekKey(monday - 1)).toBe("2026-W47");
    expect(isoWeekKey(monday + 7 * 24 * HOUR)).toBe("2026-W49");
  });
});

describe("product 2 date-times: toIso and formatIstanbul", () => {
  it.each([
    ["2026-11-21T20:05:00.000Z", "21.11.2026 23:05"],
    ["2026-11-21T21:05:09.007Z", "22.11.2026 00:05"],
    ["2026-12-31T21:00:00.000Z", "01.01.2027 00:00"],
    ["1970-01-01T00:00:00.000Z", "01.01.1970 03:00"],
    ["1969-12-31T23:59:59.999Z", "01.01.1970 02:59"],
  ])("%s -> %s", (iso, text) => {
    expect(toIso(ms(iso))).toBe(iso);
    expect(formatIstanbul(ms(iso))).toBe(text);
  });

  it("toIso agrees with Date#toISOString on scattered instants", () => {
    let seed = 12_345;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const instant = (seed - 1_073_741_824) * 2_999; // roughly 1868 to 2072, odd milliseconds included
      expect(toIso(instant)).toBe(new Date(instant).toISOString());
      expect(istanbulDate(instant)).toBe(new Date(instant + ISTANBUL_OFFSET_MS).toISOString().slice(0, 10));
    }
  });

  it("toIso keeps its texts exact across its bound (issue 37: formatted instants are kept)", () => {
    const start = Date.UTC(2026, 10, 27, 20, 19, 5, 123);
    for (const step of [1, 997, 1]) {
      for (let i = 0; i < 10_000; i++) {
        const instant = start + i * step;
        expect(toIso(instant)).toBe(new Date(instant).toISOString());
      }
    }
    expect(toIso(start)).toBe("2026-11-27T20:19:05.123Z");
  });

  it.each([0.5, Number.NaN, Number.POSITIVE_INFINITY])("toIso throws on %s", (bad) => {
    expect(() => toIso(bad)).toThrow(RangeError);
  });
});
