import { describe, expect, it } from "vitest";
import { ReconcileUsageError, previousDay, runDate } from "../../../src/domain/reconciliation/service";
import { parseReconcileAt } from "../../../src/domain/reconciliation/timer";

// Reconciliation (docs/reconciliation.md): `--date` defaults to the previous Istanbul day; a future or malformed one is a usage error.

const NOW = Date.parse("2026-03-01T22:30:00Z"); // 01:30 on 2026-03-02 in Istanbul

describe("product 26: the day a run reconciles", () => {
  it("defaults to the previous Istanbul day (not the UTC one)", () => {
    expect(previousDay(NOW)).toBe("2026-03-01");
    expect(runDate(undefined, NOW)).toBe("2026-03-01");
  });

  it.each(["2026-03-02", "2026-03-01", "2025-12-31"])("accepts %s (today or earlier)", (date) => {
    expect(runDate(date, NOW)).toBe(date);
  });

  it.each([
    ["tomorrow", "2026-03-03"],
    ["next year", "2027-01-01"],
    ["not a real date", "2026-02-30"],
    ["another format", "01.03.2026"],
    ["a time", "2026-03-01T00:00"],
    ["empty", ""],
  ])("refuses %s (%s) as a usage error", (_name, date) => {
    expect(() => runDate(date, NOW)).toThrow(ReconcileUsageError);
  });
});

describe("product 26: --reconcile-at", () => {
  it.each([
    ["06:00", 360],
    ["00:00", 0],
    ["23:59", 1439],
    ["off", null],
  ] as const)("%s -> %s", (text, minutes) => {
    expect(parseReconcileAt(text)).toBe(minutes);
  });

  it.each(["24:00", "6:00", "06:60", "0600", "never", ""])("refuses %s", (text) => {
    expect(() => parseReconcileAt(text)).toThrow(RangeError);
  });
});
