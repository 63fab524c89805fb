import type { ErrorCode } from "../../errors";
import { MINUTE_MS } from "../../limits";
import type { Repos } from "../../store/store";
import { startOfIstanbulDayMs, startOfIstanbulMonthMs, startOfIstanbulWeekMs } from "../checks/istanbul-time";
import type { ConnectionRow } from "../../store/rows";

export type ConnectionLimitCode = Extract<
  ErrorCode,
  | "pos_per_tx_limit_exceeded"
  | "pos_daily_limit_exceeded"
  | "pos_weekly_limit_exceeded"
  | "pos_monthly_limit_exceeded"
  | "pos_time_window_limit_exceeded"
>;

/**
 * docs/seed.md#partners-terminals-and-connections bank-connection limits for a charge of `amount` on `connection` at `nowMs`.
 * Usage = amounts of the connection's `initiated` and `captured` payments created in the Istanbul
 * day, the ISO week (Monday 00:00 Istanbul), the Istanbul month, and the rolling window of the
 * last `windowMinutes` (created strictly after now − window). A payment counts in the window of
 * its creation instant, whether or not it was captured later. A limit is exceeded when usage plus
 * `amount` would pass it; reaching it exactly is allowed. `exceptCode` leaves out the payment
 * being checked, which at 3D start already counts as `initiated`.
 *
 * Checked in this fixed order, the first exceeded one answers: per transaction, daily, weekly,
 * monthly, time window (the order of docs/errors.md, API errors).
 */
export async function exceededConnectionLimit(
  q: Repos,
  connection: ConnectionRow,
  amount: number,
  nowMs: number,
  exceptCode: string | null,
): Promise<ConnectionLimitCode | null> {
  if (connection.perTxMax !== null && amount > connection.perTxMax) return "pos_per_tx_limit_exceeded";
  const hasWindow = connection.windowMinutes !== null && connection.windowMax !== null;
  if (connection.dailyMax === null && connection.weeklyMax === null && connection.monthlyMax === null && !hasWindow) {
    return null;
  }
  // docs/postgresql.md: two instances must not both admit the charge that reaches a limit.
  const windowAfterMs = hasWindow ? nowMs - (connection.windowMinutes as number) * MINUTE_MS : nowMs;
  const usage = await q.payments.lockedConnectionUsage(
    connection.id,
    {
      dayFromMs: startOfIstanbulDayMs(nowMs),
      weekFromMs: startOfIstanbulWeekMs(nowMs),
      monthFromMs: startOfIstanbulMonthMs(nowMs),
      windowAfterMs,
    },
    exceptCode,
  );
  // Exact above 2^53 (docs/decisions.md, Hardening): usage is a BigInt, capped above every limit by the store.
  const over = (used: bigint, max: number | null): boolean => max !== null && used + BigInt(amount) > BigInt(max);
  if (over(usage.day, connection.dailyMax)) return "pos_daily_limit_exceeded";
  if (over(usage.week, connection.weeklyMax)) return "pos_weekly_limit_exceeded";
  if (over(usage.month, connection.monthlyMax)) return "pos_monthly_limit_exceeded";
  if (hasWindow && over(usage.window, connection.windowMax)) return "pos_time_window_limit_exceeded";
  return null;
}
