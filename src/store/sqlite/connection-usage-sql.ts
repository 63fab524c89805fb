import type { Db } from "./db-types";
import type { ConnectionTaken, ConnectionUsage, UsageWindows } from "../rows";

// docs/seed.md#partners-terminals-and-connections connection-limit usage read from the running totals of `connection_usage` (issue 17),
// which triggers in schema.sql keep in the same transaction as every payment insert and status
// change. A check reads one bucket per calendar period and, for the rolling window, the whole
// buckets inside it from the finest unit up (seconds, minutes, hours, Istanbul days) plus the
// payments of its first partial second: a bounded number of rows however large the month is.
//
// Sums are exact (BigInt, read from SQLite as decimal text) up to USAGE_CAP (2^55) and reported as
// USAGE_CAP above it: every limit is a safe integer (below 2^53), so a capped total is over every
// limit and every decision is the exact one (docs/decisions.md, Hardening: limit totals exact above 2^53). The old
// query, which sums the payments themselves, stays as `connectionUsageByScan`: the reference the
// tests compare with and `kasa check`'s cross-check.

/** 2^55: above every limit (and every limit plus one more payment); totals above it read as it. */
export const USAGE_CAP = 36_028_797_018_963_968n;
/**
 * 2^56: bucket rows are capped to it before summing, so no SUM over a range (at most 59 rows; the
 * open-ended day range holds one row per day from the window's start) can overflow 2^63. A capped
 * row minus one payment (below 2^53) is still above USAGE_CAP, so the answers stay exact.
 */
const ROW_CAP = 72_057_594_037_927_936n;

const SECOND_MS = 1000;
const ISTANBUL_OFFSET_MS = 10_800_000;
/** Payments counted by docs/seed.md, Partners, terminals and connections; the same list as the triggers in schema.sql. */
const USING_LIMITS = "status IN ('initiated', 'captured')";

const BUCKETS = `SELECT CAST(COALESCE(SUM(MIN(amount, ${ROW_CAP})), 0) AS TEXT) FROM connection_usage WHERE connection_id = ? AND unit = ?`;
const DAY_KEY = "(? + 10800000) / 86400000";
const WEEK_KEY = "((? + 10800000) / 86400000 + 3) / 7";
const MONTH_KEY = `CAST(strftime('%Y', (? + 10800000) / 1000, 'unixepoch') AS INTEGER) * 12
  + CAST(strftime('%m', (? + 10800000) / 1000, 'unixepoch') AS INTEGER) - 1`;

const USAGE_SQL = `SELECT
  (${BUCKETS} AND key >= ${DAY_KEY}) AS day,
  (${BUCKETS} AND key >= ${WEEK_KEY}) AS week,
  (${BUCKETS} AND key >= ${MONTH_KEY}) AS month,
  (SELECT CAST(COALESCE(SUM(amount), 0) AS TEXT) FROM payments
    WHERE connection_id = ? AND created_at_ms >= ? AND created_at_ms < ? AND ${USING_LIMITS}) AS partial,
  (${BUCKETS} AND key >= ? AND key < ?) AS seconds, (${BUCKETS} AND key >= ? AND key < ?) AS minutes,
  (${BUCKETS} AND key >= ? AND key < ?) AS hours, (${BUCKETS} AND key >= ?) AS days`;

type UsageText = Record<"day" | "week" | "month" | "partial" | "seconds" | "minutes" | "hours" | "days", string>;

const capped = (n: bigint): bigint => (n > USAGE_CAP ? USAGE_CAP : n);

/**
 * The whole buckets covering [firstMs, ∞): seconds up to the first minute, minutes up to the first
 * hour, hours up to the first Istanbul midnight, then Istanbul days; the milliseconds before the
 * first whole second are read from the payments.
 */
function windowRanges(firstMs: number) {
  const s = Math.ceil(firstMs / SECOND_MS);
  const m = Math.ceil(s / 60);
  const h = Math.ceil(m / 60);
  const d = Math.ceil((h + 3) / 24);
  return { partialTo: s * SECOND_MS, seconds: [s, m * 60], minutes: [m, h * 60], hours: [h, d * 24 - 3], days: d };
}

export function connectionUsageSql(db: Db) {
  const ops = {
    /** docs/seed.md#partners-terminals-and-connections usage of a connection, by window, leaving out `exceptCode` (the payment being checked). */
    connectionUsage(connectionId: string, w: UsageWindows, exceptCode: string | null): ConnectionUsage {
      const first = w.windowAfterMs + 1;
      const r = windowRanges(first);
      const c = connectionId;
      const t = db
        .prepare(USAGE_SQL)
        .get<UsageText>(
          c,
          "d",
          w.dayFromMs,
          c,
          "w",
          w.weekFromMs,
          c,
          "mo",
          w.monthFromMs,
          w.monthFromMs,
          c,
          first,
          r.partialTo,
          c,
          "s",
          ...r.seconds,
          c,
          "m",
          ...r.minutes,
          c,
          "h",
          ...r.hours,
          c,
          "d",
          r.days,
        ) as UsageText;
      const usage: ConnectionUsage = {
        day: BigInt(t.day),
        week: BigInt(t.week),
        month: BigInt(t.month),
        window: BigInt(t.partial) + BigInt(t.seconds) + BigInt(t.minutes) + BigInt(t.hours) + BigInt(t.days),
      };
      if (exceptCode === null) return cappedUsage(usage);
      const own = db
        .prepare(`SELECT amount, created_at_ms AS createdAtMs FROM payments WHERE code = ? AND connection_id = ? AND ${USING_LIMITS}`)
        .get<{ amount: number; createdAtMs: number }>(exceptCode, connectionId);
      if (own === undefined) return cappedUsage(usage);
      const less = (used: bigint, counted: boolean): bigint => (counted ? used - BigInt(own.amount) : used);
      return cappedUsage({
        day: less(usage.day, own.createdAtMs >= w.dayFromMs),
        week: less(usage.week, own.createdAtMs >= w.weekFromMs),
        month: less(usage.month, own.createdAtMs >= w.monthFromMs),
        window: less(usage.window, own.createdAtMs > w.windowAfterMs),
      });
    },
    /** The same answer summed from the payments themselves, exactly: O(payments in the month). */
    connectionUsageByScan(connectionId: string, w: UsageWindows, exceptCode: string | null): ConnectionUsage {
      const from = Math.min(w.dayFromMs, w.weekFromMs, w.monthFromMs, w.windowAfterMs + 1);
      const rows = db
        .prepare(
          `SELECT amount, created_at_ms AS createdAtMs FROM payments
           WHERE connection_id = ? AND created_at_ms >= ? AND ${USING_LIMITS} AND code <> ?`,
        )
        .all<{ amount: number; createdAtMs: number }>(connectionId, from, exceptCode ?? "");
      const usage: ConnectionUsage = { day: 0n, week: 0n, month: 0n, window: 0n };
      for (const p of rows) {
        const amount = BigInt(p.amount);
        if (p.createdAtMs >= w.dayFromMs) usage.day += amount;
        if (p.createdAtMs >= w.weekFromMs) usage.week += amount;
        if (p.createdAtMs >= w.monthFromMs) usage.month += amount;
        if (p.createdAtMs > w.windowAfterMs) usage.window += amount;
      }
      return cappedUsage(usage);
    },
    /** Recomputes every total from the payments (a database made before the totals existed). */
    rebuildConnectionUsage(): void {
      db.exec("DELETE FROM connection_usage");
      db.exec(REBUILD_SQL);
    },
  };
  return {
    ...ops,
    /**
     * SQLite's single writer runs one unit at a time: there is no row to lock, and no other
     * instance to reserve room from (store.ts), so every check is the exact one.
     */
    lockedConnectionUsage: (connectionId: string, w: UsageWindows, exceptCode: string | null): ConnectionTaken => ({
      usage: ops.connectionUsage(connectionId, w, exceptCode),
      others: 0n,
      own: 0n,
    }),
    admitReserved: (): boolean => false,
    insertWithinReservation: (): null => null,
    reclaimRoom: (): void => {},
    reserveRoom: (): void => {},
  };
}

const PERIODS: [unit: string, key: string][] = [
  ["s", "created_at_ms / 1000"],
  ["m", "created_at_ms / 60000"],
  ["h", "created_at_ms / 3600000"],
  ["d", `(created_at_ms + ${ISTANBUL_OFFSET_MS}) / 86400000`],
  ["w", `((created_at_ms + ${ISTANBUL_OFFSET_MS}) / 86400000 + 3) / 7`],
  ["mo", MONTH_KEY.replaceAll("?", "created_at_ms")],
];

const REBUILD_SQL = `INSERT INTO connection_usage (connection_id, unit, key, amount) ${PERIODS.map(
  ([unit, key]) =>
    `SELECT connection_id, '${unit}', ${key}, MIN(SUM(amount), 4611686018427387904)
     FROM payments WHERE ${USING_LIMITS} GROUP BY connection_id, ${key}`,
).join(" UNION ALL ")}`;

function cappedUsage(u: ConnectionUsage): ConnectionUsage {
  return { day: capped(u.day), week: capped(u.week), month: capped(u.month), window: capped(u.window) };
}
