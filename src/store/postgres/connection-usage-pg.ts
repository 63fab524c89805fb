import type { ConnectionTaken, ConnectionUsage, RoomTerms, UsageWindows } from "../rows";
import { USAGE_CAP } from "../sqlite/connection-usage-sql";
import type { Pg } from "./pg";
import { lockForExactCheck, reservedColumns, roomReservationsPg, type RoomHolder } from "./room-reservations-pg";

// docs/seed.md#partners-terminals-and-connections connection-limit usage on PostgreSQL (issue 23): the translation of
// sqlite/connection-usage-sql.ts, read from the running totals `connection_usage` that the
// triggers of postgres/schema.sql keep. Bucket keys are computed by `kasa_usage_keys`, the very
// function the triggers use, so a window's first bucket can never disagree with the buckets the
// triggers filled. Sums are cast to text in SQL and read as BigInt (pg.ts refuses an int8 past 2^53).

const SECOND_MS = 1000;

type UsageText = Record<"day" | "week" | "month" | "partial" | "seconds" | "minutes" | "hours" | "days", string> & {
  ownAmount: number | null;
  ownCreatedAtMs: number | null;
  /** With the reserved columns (the locked read): the other holders' unused room, and this holder's usable one. */
  others?: string;
  own?: string | null;
};

const capped = (n: bigint): bigint => (n > USAGE_CAP ? USAGE_CAP : n);

function cappedUsage(u: ConnectionUsage): ConnectionUsage {
  return { day: capped(u.day), week: capped(u.week), month: capped(u.month), window: capped(u.window) };
}

/** The whole buckets covering [firstMs, ∞), finest first; the same split as the SQLite version. */
function windowRanges(firstMs: number) {
  const s = Math.ceil(firstMs / SECOND_MS);
  const m = Math.ceil(s / 60);
  const h = Math.ceil(m / 60);
  const d = Math.ceil((h + 3) / 24);
  return { partialTo: s * SECOND_MS, seconds: [s, m * 60], minutes: [m, h * 60], hours: [h, d * 24 - 3], days: d };
}

/**
 * One statement reads every window and the excluded payment: a single snapshot, so a payment
 * changing status between two reads (no single writer here) cannot be subtracted from totals
 * that no longer hold it.
 */
async function readUsage(sql: Pg, c: string, w: UsageWindows, exceptCode: string | null, reserved = sql``): Promise<UsageText> {
  const r = windowRanges(w.windowAfterMs + 1);
  // Bucket rows are capped to 2^56 before summing, as in SQLite, so no SUM can pass 2^63.
  const sum = (unit: string) =>
    sql`SELECT COALESCE(SUM(LEAST(amount, 72057594037927936)), 0)::text FROM connection_usage WHERE connection_id = ${c} AND unit = ${unit}`;
  const keyOf = (ms: number, unit: string) => sql`(SELECT k.key FROM kasa_usage_keys(${ms}::bigint) AS k WHERE k.unit = ${unit})`;
  const rows = await sql<UsageText[]>`SELECT ${reserved}
    (${sum("d")} AND key >= ${keyOf(w.dayFromMs, "d")}) AS day,
    (${sum("w")} AND key >= ${keyOf(w.weekFromMs, "w")}) AS week,
    (${sum("mo")} AND key >= ${keyOf(w.monthFromMs, "mo")}) AS month,
    (SELECT COALESCE(SUM(amount), 0)::text FROM payments WHERE connection_id = ${c}
      AND created_at_ms >= ${w.windowAfterMs + 1}::bigint AND created_at_ms < ${r.partialTo}::bigint
      AND status IN ('initiated', 'captured')) AS partial,
    (${sum("s")} AND key >= ${r.seconds[0]!}::bigint AND key < ${r.seconds[1]!}::bigint) AS seconds,
    (${sum("m")} AND key >= ${r.minutes[0]!}::bigint AND key < ${r.minutes[1]!}::bigint) AS minutes,
    (${sum("h")} AND key >= ${r.hours[0]!}::bigint AND key < ${r.hours[1]!}::bigint) AS hours,
    (${sum("d")} AND key >= ${r.days}::bigint) AS days,
    (SELECT amount FROM payments WHERE code = ${exceptCode} AND connection_id = ${c}
      AND status IN ('initiated', 'captured')) AS "ownAmount",
    (SELECT created_at_ms FROM payments WHERE code = ${exceptCode} AND connection_id = ${c}
      AND status IN ('initiated', 'captured')) AS "ownCreatedAtMs"`;
  return rows[0]!;
}

/** The windows' totals with the excluded payment taken out, capped as on SQLite. */
function usageOf(t: UsageText, w: UsageWindows): ConnectionUsage {
  const usage: ConnectionUsage = {
    day: BigInt(t.day),
    week: BigInt(t.week),
    month: BigInt(t.month),
    window: BigInt(t.partial) + BigInt(t.seconds) + BigInt(t.minutes) + BigInt(t.hours) + BigInt(t.days),
  };
  if (t.ownAmount === null || t.ownCreatedAtMs === null) return cappedUsage(usage);
  const own = { amount: BigInt(t.ownAmount), createdAtMs: t.ownCreatedAtMs };
  const less = (used: bigint, counted: boolean): bigint => (counted ? used - own.amount : used);
  return cappedUsage({
    day: less(usage.day, own.createdAtMs >= w.dayFromMs),
    week: less(usage.week, own.createdAtMs >= w.weekFromMs),
    month: less(usage.month, own.createdAtMs >= w.monthFromMs),
    window: less(usage.window, own.createdAtMs > w.windowAfterMs),
  });
}

export function connectionUsagePg(sql: Pg, holder: RoomHolder) {
  return {
    /** docs/seed.md#partners-terminals-and-connections usage of a connection, by window, leaving out `exceptCode` (the payment being checked). */
    async connectionUsage(connectionId: string, w: UsageWindows, exceptCode: string | null): Promise<ConnectionUsage> {
      return usageOf(await readUsage(sql, connectionId, w, exceptCode), w);
    },
    /**
     * The locks and the read go out together, in this order, on the unit's connection (postgres.js
     * sends a query in the order its execution was asked for), and PostgreSQL runs them in turn: one
     * round trip, and the read, whose snapshot is taken when it starts, runs only once the locks are
     * held, so it sees every usage and reservation committed before it (room-reservations-pg.ts).
     */
    async lockedConnectionUsage(
      connectionId: string,
      w: UsageWindows,
      exceptCode: string | null,
      room: RoomTerms,
    ): Promise<ConnectionTaken> {
      const locks = lockForExactCheck(sql, connectionId, holder);
      const read = readUsage(sql, connectionId, w, exceptCode, reservedColumns(sql, connectionId, holder, w, room));
      const [t] = await Promise.all([read, ...locks]);
      return { usage: usageOf(t, w), others: BigInt(t.others ?? "0"), own: BigInt(t.own ?? "0") };
    },
    ...roomReservationsPg(sql, holder),
    /** The same answer summed from the payments themselves, exactly: O(payments in the month). */
    async connectionUsageByScan(connectionId: string, w: UsageWindows, exceptCode: string | null): Promise<ConnectionUsage> {
      const from = Math.min(w.dayFromMs, w.weekFromMs, w.monthFromMs, w.windowAfterMs + 1);
      const rows = await sql<{ amount: number; createdAtMs: number }[]>`SELECT amount, created_at_ms AS "createdAtMs"
        FROM payments WHERE connection_id = ${connectionId} AND created_at_ms >= ${from}::bigint
          AND status IN ('initiated', 'captured') AND code <> ${exceptCode ?? ""}`;
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
    /**
     * Recomputes every total from the payments (a database made before the totals existed). On
     * SQLite the single writer keeps payments still while it runs; here a SHARE lock on payments
     * does (it waits for open writers and holds new ones until commit), so no trigger can add to a
     * bucket between the DELETE and the INSERT. Outside a transaction it opens its own, since the
     * lock lasts only as long as one.
     */
    async rebuildConnectionUsage(): Promise<void> {
      const run = async (tx: Pg) => {
        await tx`LOCK TABLE payments IN SHARE MODE`;
        await tx`DELETE FROM connection_usage`;
        await tx`INSERT INTO connection_usage (connection_id, unit, key, amount)
          SELECT p.connection_id, k.unit, k.key, LEAST(SUM(p.amount), 4611686018427387904)::bigint
          FROM payments AS p CROSS JOIN LATERAL kasa_usage_keys(p.created_at_ms) AS k
          WHERE p.status IN ('initiated', 'captured') GROUP BY p.connection_id, k.unit, k.key`;
      };
      // Only the pool has `begin`: a unit's connection (group-commit-pg.ts) is already in a transaction.
      if ("begin" in sql && typeof sql.begin === "function") await sql.begin(run);
      else await run(sql);
    },
  };
}
