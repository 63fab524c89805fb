import type { AttemptRow, RouteRecord } from "../rows-money";
import type { AttemptsOps } from "../money-ops";
import type { Pg } from "./pg";

// Card attempts of a payment on PostgreSQL (issue 23): the translation of sqlite/attempts-sql.ts.
// Moves are single conditional UPDATEs, atomic without the single writer. `counted` keeps its 0/1
// number as in SQLite (schema.sql has no CHECK on it), so rows turn it into a boolean here.

const COLUMNS = `id, payment_code AS "paymentCode", status, counted, created_at_ms AS "createdAtMs", updated_at_ms AS "updatedAtMs",
  terminal_id AS "terminalId", connection_id AS "connectionId", route`;

type Raw = Omit<AttemptRow, "counted" | "route"> & { counted: number; route: string | null };

const toRow = (r: Raw): AttemptRow => ({
  ...r,
  counted: r.counted === 1,
  route: r.route === null ? null : (JSON.parse(r.route) as RouteRecord),
});
const routeJson = (route: RouteRecord | null | undefined): string | null => (route ? JSON.stringify(route) : null);

export function attemptsPg(sql: Pg): AttemptsOps {
  const columns = sql.unsafe(COLUMNS);
  return {
    async lock(key) {
      await sql`SELECT 1 FROM payment_attempts WHERE id = ${key} FOR UPDATE`;
    },
    async get(id) {
      const r = (await sql<Raw[]>`SELECT ${columns} FROM payment_attempts WHERE id = ${id}`)[0];
      return r && toRow(r);
    },
    byPayment: async (paymentCode) =>
      Array.from(
        await sql<
          Raw[]
        >`SELECT ${columns} FROM payment_attempts WHERE payment_code = ${paymentCode} ORDER BY created_at_ms, id COLLATE "C"`,
        toRow,
      ),
    async insert(a) {
      await sql`INSERT INTO payment_attempts (id, payment_code, status, counted, created_at_ms, updated_at_ms, terminal_id, connection_id, route)
        VALUES (${a.id}, ${a.paymentCode}, ${a.status}, ${a.counted ? 1 : 0}, ${a.createdAtMs}, ${a.createdAtMs}, ${a.terminalId},
          ${a.connectionId}, ${routeJson(a.route)})`;
    },
    reroute: async (id, to, atMs) =>
      (
        await sql`UPDATE payment_attempts SET terminal_id = ${to.terminalId}, connection_id = ${to.connectionId},
          route = ${routeJson(to.route)}, updated_at_ms = ${atMs} WHERE id = ${id} AND status = 'starting'`
      ).count === 1,
    // GREATEST keeps an attempt counted once it was: `counted` false never clears it (SQLite's MAX).
    move: async (id, from, to, atMs, counted = false) =>
      (
        await sql`UPDATE payment_attempts SET status = ${to}, counted = GREATEST(counted, ${counted ? 1 : 0}::bigint),
          updated_at_ms = ${atMs} WHERE id = ${id} AND status = ANY(${[...from]}::text[])`
      ).count === 1,
    closeOpen: async (paymentCode, from, to, atMs) =>
      (
        await sql`UPDATE payment_attempts SET status = ${to}, updated_at_ms = ${atMs}
          WHERE payment_code = ${paymentCode} AND status = ANY(${[...from]}::text[])`
      ).count,
  };
}
