import { wallNowMs } from "../../clock";
import type { RoomTerms, UsageWindows } from "../rows";
import type { Pg } from "./pg";

// docs/postgresql.md "Connection limits across instances" (issue 37): each running instance may
// hold a reservation of a connection's room (a row of connection_reservations, keyed by the
// instance's `holder` id), granted by the exact check under the connection lock. Creates admitted
// against it take no lock and read no totals: the row is only this instance's, so instances do not
// wait for each other. The row, not this process's memory, is the truth: a create is admitted only
// by the conditional UPDATE that counts it, in the create's own transaction, and a rolled-back
// grant or create leaves nothing behind. The hints below only save a round trip when there is
// surely no usable reservation.

/** How long a grant lasts, on the database's clock. */
export const RESERVATION_TTL_MS = 10_000;
/**
 * The holder stops admitting against a reservation this long before it expires, so the creates it
 * admitted normally commit before another instance's check stops counting the reservation. Not
 * needed for safety: that check deletes an expired reservation first, which waits for every open
 * transaction that counted a create against it.
 */
export const RESERVATION_MARGIN_MS = 2_000;

/** One instance's identity towards other instances, and what it last granted itself per connection. */
export type RoomHolder = {
  id: string;
  /** Per connection: the terms of the last grant and when (this process's clock) it stops being usable. */
  hints: Map<string, { terms: string; usableUntilMs: number }> | null;
};

/** For repos that never reserve (a maintenance command, a test's store): every other holder's room still counts. */
export const NO_HOLDER: RoomHolder = { id: "", hints: null };

/** The latest start of the Istanbul day, week and month holding now: a grant is valid only if made after it. */
export const periodFromMs = (w: UsageWindows): number => Math.max(w.dayFromMs, w.weekFromMs, w.monthFromMs);

/** The columns the locked read adds: the others' unused room, and this holder's while it can still admit against it. */
export function reservedColumns(sql: Pg, connectionId: string, holder: RoomHolder, w: UsageWindows, room: RoomTerms) {
  return sql`(SELECT COALESCE(SUM(GREATEST(amount - used, 0)), 0)::text FROM connection_reservations
      WHERE connection_id = ${connectionId} AND holder <> ${holder.id}) AS others,
    (SELECT GREATEST(amount - used, 0)::text FROM connection_reservations
      WHERE connection_id = ${connectionId} AND holder = ${holder.id} AND ${usable(sql, w, room)}) AS own,`;
}

/** A reservation this holder may still admit against (the same test for the admission and for the locked read). */
function usable(sql: Pg, w: UsageWindows, room: RoomTerms) {
  return sql`terms = ${room.terms} AND granted_at_ms <= ${room.nowMs}::bigint
    AND granted_at_ms >= ${periodFromMs(w)}::bigint AND expires_at_ms > kasa_clock_ms() + ${RESERVATION_MARGIN_MS}::bigint`;
}

/**
 * What the exact check sends before its read, in this order: this holder's own row is locked
 * first (its open creates against it commit before the read), then the connection, then the other
 * holders' expired rows are deleted, those a transaction holds excepted (SKIP LOCKED: waiting for
 * one, with the connection locked, could close a circle with a holder's batch). The read counts
 * every other holder's row still there, expired or not, so an open create against a row left
 * standing is counted by its room. Expired rows of every connection go, not only this one's: no
 * holder admits against an expired row, and one no transaction holds has nothing open against it,
 * so a stopped instance leaves no rows behind on connections nobody checks.
 */
export function lockForExactCheck(sql: Pg, connectionId: string, holder: RoomHolder): Promise<unknown>[] {
  return [
    sql`SELECT 1 FROM connection_reservations WHERE connection_id = ${connectionId} AND holder = ${holder.id} FOR UPDATE`.execute(),
    sql`SELECT 1 FROM connections WHERE id = ${connectionId} FOR NO KEY UPDATE`.execute(),
    sql`DELETE FROM connection_reservations WHERE (connection_id, holder) IN (
      SELECT connection_id, holder FROM connection_reservations
      WHERE holder <> ${holder.id} AND expires_at_ms <= kasa_clock_ms() FOR UPDATE SKIP LOCKED)`.execute(),
  ];
}

/**
 * The conditional UPDATE that admits `amount` against this holder's reservation of the connection's
 * room (counting it in `used`), with `extra` conditions; null, and no round trip, when the hints say
 * this holder surely has no usable reservation.
 */
export function admission(
  sql: Pg,
  holder: RoomHolder,
  connectionId: string,
  amount: number,
  w: UsageWindows,
  room: RoomTerms,
  extra = sql``,
) {
  const hint = holder.hints?.get(connectionId);
  if (hint === undefined || hint.terms !== room.terms || wallNowMs() >= hint.usableUntilMs) return null;
  return sql`UPDATE connection_reservations SET used = used + ${amount}::bigint
    WHERE connection_id = ${connectionId} AND holder = ${holder.id} AND amount - used >= ${amount}::bigint
      AND ${usable(sql, w, room)} ${extra}`;
}

export function roomReservationsPg(sql: Pg, holder: RoomHolder) {
  return {
    async admitReserved(connectionId: string, amount: number, w: UsageWindows, room: RoomTerms): Promise<boolean> {
      const update = admission(sql, holder, connectionId, amount, w, room);
      if (update === null) return false;
      if ((await update).count === 1) return true;
      // Without room: no round trip for it until the next grant.
      holder.hints?.delete(connectionId);
      return false;
    },
    /**
     * Takes back the unused room of every other holder (their `amount` becomes their `used`), so an
     * exact check near a limit is not refused for room nobody is using. Run under the connection
     * lock; each row's lock waits for the holder's open creates against it, and a holder's next
     * admission against it, waiting for this one, finds no room and goes to the exact check.
     */
    async reclaimRoom(connectionId: string): Promise<void> {
      await sql`UPDATE connection_reservations SET amount = used
        WHERE connection_id = ${connectionId} AND holder <> ${holder.id} AND amount > used`;
    },
    async reserveRoom(connectionId: string, amount: bigint, room: RoomTerms): Promise<void> {
      if (holder.hints === null) return;
      if (amount <= 0n) {
        holder.hints.delete(connectionId);
        await sql`DELETE FROM connection_reservations WHERE connection_id = ${connectionId} AND holder = ${holder.id}`;
        return;
      }
      holder.hints.set(connectionId, { terms: room.terms, usableUntilMs: wallNowMs() + RESERVATION_TTL_MS - RESERVATION_MARGIN_MS });
      await sql`INSERT INTO connection_reservations (connection_id, holder, amount, used, terms, granted_at_ms, expires_at_ms)
        VALUES (${connectionId}, ${holder.id}, ${amount.toString()}::bigint, 0, ${room.terms}, ${room.nowMs}::bigint,
          kasa_clock_ms() + ${RESERVATION_TTL_MS}::bigint)
        ON CONFLICT (connection_id, holder) DO UPDATE SET amount = EXCLUDED.amount, used = 0, terms = EXCLUDED.terms,
          granted_at_ms = EXCLUDED.granted_at_ms, expires_at_ms = EXCLUDED.expires_at_ms`;
    },
  };
}
