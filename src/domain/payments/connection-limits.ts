import type { ErrorCode } from "../../errors";
import { MINUTE_MS } from "../../limits";
import type { Repos } from "../../store/store";
import { startOfIstanbulDayMs, startOfIstanbulMonthMs, startOfIstanbulWeekMs } from "../checks/istanbul-time";
import type { ConnectionRow, ConnectionTaken, ConnectionUsage, RoomTerms, UsageWindows } from "../../store/rows";
import type { NewPayment, PaymentRow } from "../../store/rows-money";

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
  const frame = checkFrame(connection, nowMs);
  if (frame === null) return null;
  const { w, room } = frame;
  // docs/postgresql.md "Connection limits across instances": a create within this instance's
  // reservation of the connection's room needs no lock and no totals (always the exact check on SQLite).
  if (exceptCode === null && (await q.payments.admitReserved(connection.id, amount, w, room))) return null;
  // Two instances must not both admit the charge that reaches a limit: the exact check runs under
  // the connection's lock and counts what other instances have reserved. A create then replaces
  // this instance's own reservation, so its own unused room is not counted against it.
  let taken = await q.payments.lockedConnectionUsage(connection.id, w, exceptCode, room);
  let { windows, reserved, exceeded } = judge(connection, taken, amount, exceptCode);
  if (exceeded && taken.others > 0n) {
    // Near the limit: the room other instances set aside and have not used is taken back first.
    await q.payments.reclaimRoom(connection.id);
    taken = await q.payments.lockedConnectionUsage(connection.id, w, exceptCode, room);
    ({ windows, reserved, exceeded } = judge(connection, taken, amount, exceptCode));
  }
  if (exceeded) return exceeded.code;
  if (exceptCode === null) {
    const grant = reservationGrant(windows, reserved + BigInt(amount));
    if (grant > 0n || taken.own > 0n) await q.payments.reserveRoom(connection.id, grant, room);
  }
  return null;
}

/**
 * A create's payment inserted with its first reads (docs/postgresql.md, "A create in one round
 * trip"): the row as stored when it was admitted within this instance's reservation of the
 * connection's room (or the connection has no period or window limit) and no active payment held
 * its code. `null` leaves the create to `exceededConnectionLimit` and `payments.insert`: always
 * past the per-transaction limit, and always on SQLite.
 */
export async function insertedWithinReservation(q: Repos, connection: ConnectionRow, row: NewPayment): Promise<PaymentRow | null> {
  if (connection.perTxMax !== null && row.amount > connection.perTxMax) return null;
  return await q.payments.insertWithinReservation(row, checkFrame(connection, row.createdAtMs));
}

/** The windows and reservation terms of a check at `nowMs`; null when the connection has no period or window limit. */
function checkFrame(connection: ConnectionRow, nowMs: number): { w: UsageWindows; room: RoomTerms } | null {
  const hasWindow = connection.windowMinutes !== null && connection.windowMax !== null;
  if (connection.dailyMax === null && connection.weeklyMax === null && connection.monthlyMax === null && !hasWindow) {
    return null;
  }
  const w: UsageWindows = {
    dayFromMs: startOfIstanbulDayMs(nowMs),
    weekFromMs: startOfIstanbulWeekMs(nowMs),
    monthFromMs: startOfIstanbulMonthMs(nowMs),
    windowAfterMs: hasWindow ? nowMs - (connection.windowMinutes as number) * MINUTE_MS : nowMs,
  };
  return { w, room: { terms: termsOf(connection), nowMs } };
}

type LimitedWindow = { code: ConnectionLimitCode; used: bigint; max: bigint };

/** The exact check: the first limited window that usage, the reserved room and `amount` would pass. */
function judge(connection: ConnectionRow, taken: ConnectionTaken, amount: number, exceptCode: string | null) {
  const reserved = taken.others + (exceptCode === null ? 0n : taken.own);
  const windows = limitedWindows(connection, taken.usage);
  // Exact above 2^53 (docs/decisions.md, Hardening): usage is a BigInt, capped above every limit by the store.
  const exceeded = windows.find((x) => x.used + reserved + BigInt(amount) > x.max);
  return { windows, reserved, exceeded };
}

/** The limited windows with their usage, in the order they are checked (docs/errors.md, API errors). */
function limitedWindows(c: ConnectionRow, usage: ConnectionUsage): LimitedWindow[] {
  const all: [ConnectionLimitCode, bigint, number | null][] = [
    ["pos_daily_limit_exceeded", usage.day, c.dailyMax],
    ["pos_weekly_limit_exceeded", usage.week, c.weeklyMax],
    ["pos_monthly_limit_exceeded", usage.month, c.monthlyMax],
    ["pos_time_window_limit_exceeded", usage.window, c.windowMinutes === null ? null : c.windowMax],
  ];
  return all.filter(([, , max]) => max !== null).map(([code, used, max]) => ({ code, used, max: BigInt(max as number) }));
}

/**
 * docs/postgresql.md: after an exact admission, the instance sets aside half of the room every
 * limited window still has (`taken` = what others reserved plus this charge), so N instances share
 * a connection's room without waiting for each other, and near a limit every check is exact again.
 */
export function reservationGrant(windows: readonly LimitedWindow[], taken: bigint): bigint {
  let room: bigint | null = null;
  for (const x of windows) {
    const left = x.max - x.used - taken;
    if (room === null || left < room) room = left;
  }
  return room === null || room <= 0n ? 0n : room / 2n;
}

/** The limits a reservation was granted under: one that changes voids it. */
const termsOf = (c: ConnectionRow): string => `${c.dailyMax}/${c.weeklyMax}/${c.monthlyMax}/${c.windowMinutes}/${c.windowMax}`;
