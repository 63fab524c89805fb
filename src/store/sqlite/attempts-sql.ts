import type { Db } from "./db-types";
import type { AttemptRow, AttemptStatus, RouteRecord } from "../rows-money";
import type { NewAttempt } from "../money-ops";

// Card attempts of a payment (docs/checkout.md). An attempt is recorded before the bank is called and
// closed by conditional updates, so a callback or capture can act on it at most once.

const COLUMNS = `id, payment_code AS paymentCode, status, counted, created_at_ms AS createdAtMs, updated_at_ms AS updatedAtMs,
  terminal_id AS terminalId, connection_id AS connectionId, route`;

type Raw = Omit<AttemptRow, "counted" | "route"> & { counted: number; route: string | null };

const toRow = (r: Raw | undefined): AttemptRow | undefined =>
  r && { ...r, counted: r.counted === 1, route: r.route === null ? null : (JSON.parse(r.route) as RouteRecord) };
const routeJson = (route: RouteRecord | null | undefined): string | null => (route ? JSON.stringify(route) : null);

const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");

export function attemptsSql(db: Db) {
  return {
    get: (id: string) => toRow(db.prepare(`SELECT ${COLUMNS} FROM payment_attempts WHERE id = ?`).get<Raw>(id)),
    byPayment: (paymentCode: string) =>
      db
        .prepare(`SELECT ${COLUMNS} FROM payment_attempts WHERE payment_code = ? ORDER BY created_at_ms, id`)
        .all<Raw>(paymentCode)
        .map((r) => toRow(r) as AttemptRow),
    insert(a: NewAttempt): void {
      db.prepare(
        `INSERT INTO payment_attempts (id, payment_code, status, counted, created_at_ms, updated_at_ms, terminal_id, connection_id, route)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        a.id,
        a.paymentCode,
        a.status,
        a.counted ? 1 : 0,
        a.createdAtMs,
        a.createdAtMs,
        a.terminalId,
        a.connectionId,
        routeJson(a.route),
      );
    },
    /** A router's failover within a `starting` attempt: the next member takes it (docs/routing.md). */
    reroute: (id: string, to: Pick<AttemptRow, "terminalId" | "connectionId" | "route">, atMs: number): boolean =>
      db
        .prepare(
          `UPDATE payment_attempts SET terminal_id = ?, connection_id = ?, route = ?, updated_at_ms = ? WHERE id = ? AND status = 'starting'`,
        )
        .run(to.terminalId, to.connectionId, routeJson(to.route), atMs, id).changes === 1,
    /** One conditional move; `counted` true also marks the attempt as counted. */
    move: (id: string, from: readonly AttemptStatus[], to: AttemptStatus, atMs: number, counted = false): boolean =>
      db
        .prepare(
          `UPDATE payment_attempts SET status = ?, counted = MAX(counted, ?), updated_at_ms = ?
           WHERE id = ? AND status IN (${placeholders(from.length)})`,
        )
        .run(to, counted ? 1 : 0, atMs, id, ...from).changes === 1,
    /** Closes every attempt of the payment still in `from` (window expiry); answers how many. */
    closeOpen: (paymentCode: string, from: readonly AttemptStatus[], to: AttemptStatus, atMs: number): number =>
      db
        .prepare(
          `UPDATE payment_attempts SET status = ?, updated_at_ms = ? WHERE payment_code = ? AND status IN (${placeholders(from.length)})`,
        )
        .run(to, atMs, paymentCode, ...from).changes,
  };
}
