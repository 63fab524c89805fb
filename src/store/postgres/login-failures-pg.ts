import type { LoginFailureRow } from "../rows";
import type { LoginFailuresOps } from "../panel-ops";
import type { Pg } from "./pg";

// Panel password checks that did not succeed, on PostgreSQL. An address may have no row at all
// (an unknown address counts too), so the unit that counts and inserts holds an advisory lock on
// the address instead of a row lock: two instances checking one address take turns.

export function loginFailuresPg(sql: Pg): LoginFailuresOps {
  return {
    async lock(email) {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`panel-login:${email}`}, 0))`;
    },
    since: async (email, sinceMs, limit) => [
      ...(await sql<LoginFailureRow[]>`
        SELECT seq, ip, at_ms AS "atMs" FROM panel_login_failures WHERE email = ${email} AND at_ms >= ${sinceMs}
        ORDER BY at_ms DESC, seq DESC LIMIT ${limit}`),
    ],
    insert: async (email, ip, atMs) =>
      (await sql<{ seq: number }[]>`INSERT INTO panel_login_failures (email, ip, at_ms) VALUES (${email}, ${ip}, ${atMs}) RETURNING seq`)[0]
        ?.seq ?? 0,
    async remove(seq) {
      await sql`DELETE FROM panel_login_failures WHERE seq = ${seq}`;
    },
    async clear(email, ip) {
      if (ip === null) await sql`DELETE FROM panel_login_failures WHERE email = ${email}`;
      else await sql`DELETE FROM panel_login_failures WHERE email = ${email} AND ip = ${ip}`;
    },
    async prune(beforeMs) {
      await sql`DELETE FROM panel_login_failures WHERE at_ms < ${beforeMs}`;
    },
  };
}
