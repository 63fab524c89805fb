import type { AuditRow, PanelSessionRow, PanelUserRow } from "../rows";
import type { PanelAuditOps, PanelSessionsOps, PanelUsersOps } from "../panel-ops";
import type { Pg } from "./pg";

// The merchant panel's users, sessions and audit log (docs/panel.md) on PostgreSQL. Aliases are quoted
// because PostgreSQL folds unquoted names to lower case; emails sort by bytes, as in SQLite.

const USER_COLUMNS = `id, partner_id AS "partnerId", email, role, password_hash AS "passwordHash", status,
  failed_logins AS "failedLogins", locked_until_ms AS "lockedUntilMs", created_at_ms AS "createdAtMs",
  updated_at_ms AS "updatedAtMs"`;

export function panelUsersPg(sql: Pg): PanelUsersOps {
  const cols = () => sql.unsafe(USER_COLUMNS);
  return {
    byEmail: async (email) => (await sql<PanelUserRow[]>`SELECT ${cols()} FROM panel_users WHERE email = ${email}`)[0],
    get: async (id) => (await sql<PanelUserRow[]>`SELECT ${cols()} FROM panel_users WHERE id = ${id}`)[0],
    list: async (partnerId) => [
      ...(partnerId === null
        ? await sql<PanelUserRow[]>`SELECT ${cols()} FROM panel_users ORDER BY partner_id COLLATE "C", email COLLATE "C"`
        : await sql<PanelUserRow[]>`SELECT ${cols()} FROM panel_users WHERE partner_id = ${partnerId} ORDER BY email COLLATE "C"`),
    ],
    async insert(u) {
      await sql`
        INSERT INTO panel_users (id, partner_id, email, role, password_hash, status, failed_logins, locked_until_ms,
          created_at_ms, updated_at_ms)
        VALUES (${u.id}, ${u.partnerId}, ${u.email}, ${u.role}, ${u.passwordHash}, ${u.status}, ${u.failedLogins},
          ${u.lockedUntilMs}, ${u.createdAtMs}, ${u.updatedAtMs})`;
    },
    setStatus: async (id, status, atMs) =>
      (await sql`UPDATE panel_users SET status = ${status}, updated_at_ms = ${atMs} WHERE id = ${id}`).count === 1,
    setPassword: async (id, hash, atMs) =>
      (
        await sql`UPDATE panel_users SET password_hash = ${hash}, failed_logins = 0, locked_until_ms = NULL, updated_at_ms = ${atMs}
          WHERE id = ${id}`
      ).count === 1,
  };
}

const SESSION_COLUMNS = `id_hash AS "idHash", user_id AS "userId", csrf_token AS "csrfToken", created_at_ms AS "createdAtMs",
  last_seen_at_ms AS "lastSeenAtMs"`;

export function panelSessionsPg(sql: Pg): PanelSessionsOps {
  return {
    get: async (idHash) =>
      (await sql<PanelSessionRow[]>`SELECT ${sql.unsafe(SESSION_COLUMNS)} FROM panel_sessions WHERE id_hash = ${idHash}`)[0],
    async insert(s) {
      await sql`
        INSERT INTO panel_sessions (id_hash, user_id, csrf_token, created_at_ms, last_seen_at_ms)
        VALUES (${s.idHash}, ${s.userId}, ${s.csrfToken}, ${s.createdAtMs}, ${s.lastSeenAtMs})`;
    },
    touch: async (idHash, atMs) => ({
      changes: (await sql`UPDATE panel_sessions SET last_seen_at_ms = ${atMs} WHERE id_hash = ${idHash}`).count,
    }),
    remove: async (idHash) => (await sql`DELETE FROM panel_sessions WHERE id_hash = ${idHash}`).count === 1,
    removeForUser: async (userId) => (await sql`DELETE FROM panel_sessions WHERE user_id = ${userId}`).count,
  };
}

const AUDIT_COLUMNS = `seq, partner_id AS "partnerId", at_ms AS "atMs", user_id AS "userId", email, action, target, outcome, ip`;

export function panelAuditPg(sql: Pg): PanelAuditOps {
  return {
    async insert(a) {
      await sql`
        INSERT INTO panel_audit (partner_id, at_ms, user_id, email, action, target, outcome, ip)
        VALUES (${a.partnerId}, ${a.atMs}, ${a.userId}, ${a.email}, ${a.action}, ${a.target}, ${a.outcome}, ${a.ip})`;
    },
    // The identity sequence may leave gaps (it is not rolled back); `seq <` paging does not mind.
    page: async (partnerId, beforeSeq, limit) => [
      ...(await sql<AuditRow[]>`
        SELECT ${sql.unsafe(AUDIT_COLUMNS)} FROM panel_audit
        WHERE partner_id = ${partnerId} AND seq < ${beforeSeq ?? Number.MAX_SAFE_INTEGER} ORDER BY seq DESC LIMIT ${limit}`),
    ],
  };
}
