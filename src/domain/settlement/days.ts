import { DAY_MS, DAYEND_CATCH_UP_MAX_DAYS } from "../../limits";
import type { Repos } from "../../store/store";
import { addDays, istanbulDate, istanbulDateStartMs } from "../checks/istanbul-time";

// The business calendar of day end (docs/contract.md, Refunds / The sandbox): the day end of Istanbul date D runs at 00:00
// Istanbul of D+1, the date it "runs on". Dates are "YYYY-MM-DD"; they compare as strings.

/** The Istanbul date a day end runs on: the day after the one it ends. */
export const runDayOf = (endedDay: string): string => addDays(endedDay, 1);

/**
 * When the day end of `endedDay` is due: 00:00 Istanbul of the next date (Istanbul has no DST, so
 * one day after its own 00:00). Computed as an instant, not via the next date's text, so the last
 * date a sandbox clock can reach, 9999-12-31 (docs/decisions.md, Hardening), still gets its timer.
 */
export const dayEndDueAtMs = (endedDay: string): number => istanbulDateStartMs(endedDay) + DAY_MS;

const later = (a: string, b: string): string => (a > b ? a : b);
const earlier = (a: string, b: string): string => (a < b ? a : b);

/**
 * The first day whose day end has not run: the day after the last one that ran; on a database that
 * never ran one, the day of the oldest unsettled capture (or today). A server that was down for
 * long catches up at most DAYEND_CATCH_UP_MAX_DAYS day ends: they are cumulative (each settles
 * every earlier capture and pays every earlier value date), so skipped ones lose nothing.
 */
export async function firstDayToEnd(q: Repos, nowMs: number): Promise<string> {
  const today = istanbulDate(nowMs);
  const last = await q.settlement.lastDay();
  const oldest = await q.settlement.oldestUnsettledCaptureMs();
  const first = last !== null ? runDayOf(last) : earlier(today, oldest === null ? today : istanbulDate(oldest));
  return later(first, addDays(today, -DAYEND_CATCH_UP_MAX_DAYS));
}

/**
 * Every ended day whose day end has not run, oldest first (`kasa dayend`). On a database that never
 * ran one, at least yesterday's runs, so the operator's command always settles what has ended.
 */
export async function dayEndsDue(q: Repos, nowMs: number): Promise<string[]> {
  const yesterday = addDays(istanbulDate(nowMs), -1);
  let day = (await q.settlement.lastDay()) === null ? earlier(await firstDayToEnd(q, nowMs), yesterday) : await firstDayToEnd(q, nowMs);
  const days: string[] = [];
  for (; day <= yesterday; day = addDays(day, 1)) days.push(day);
  return days;
}
