import type { Db } from "./db-types";
import type { AuditRow, PanelSessionRow, PanelUserRow } from "../rows";

// The merchant panel's users, sessions and audit log (docs/panel.md).

const USER_COLUMNS = `id, partner_id AS partnerId, email, role, password_hash AS passwordHash, status,
  failed_logins AS failedLogins, locked_until_ms AS lockedUntilMs, created_at_ms AS createdAtMs, updated_at_ms AS updatedAtMs`;

export function panelUsersSql(db: Db) {
  return {
    byEmail: (email: string) => db.prepare(`SELECT ${USER_COLUMNS} FROM panel_users WHERE email = ?`).get<PanelUserRow>(email),
    get: (id: string) => db.prepare(`SELECT ${USER_COLUMNS} FROM panel_users WHERE id = ?`).get<PanelUserRow>(id),
    /** null lists every partner's users (the operator CLI); the panel always passes its partner. */
    list: (partnerId: string | null) =>
      partnerId === null
        ? db.prepare(`SELECT ${USER_COLUMNS} FROM panel_users ORDER BY partner_id, email`).all<PanelUserRow>()
        : db.prepare(`SELECT ${USER_COLUMNS} FROM panel_users WHERE partner_id = ? ORDER BY email`).all<PanelUserRow>(partnerId),
    insert(u: PanelUserRow): void {
      db.prepare(
        `INSERT INTO panel_users (id, partner_id, email, role, password_hash, status, failed_logins, locked_until_ms, created_at_ms, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(u.id, u.partnerId, u.email, u.role, u.passwordHash, u.status, u.failedLogins, u.lockedUntilMs, u.createdAtMs, u.updatedAtMs);
    },
    setStatus: (id: string, status: PanelUserRow["status"], atMs: number) =>
      db.prepare("UPDATE panel_users SET status = ?, updated_at_ms = ? WHERE id = ?").run(status, atMs, id).changes === 1,
    /** A new password also clears the lock, so an operator's reset is the way out of one. */
    setPassword: (id: string, hash: string, atMs: number) =>
      db
        .prepare("UPDATE panel_users SET password_hash = ?, failed_logins = 0, locked_until_ms = NULL, updated_at_ms = ? WHERE id = ?")
        .run(hash, atMs, id).changes === 1,
  };
}

const SESSION_COLUMNS =
  "id_hash AS idHash, user_id AS userId, csrf_token AS csrfToken, created_at_ms AS createdAtMs, last_seen_at_ms AS lastSeenAtMs";

export function panelSessionsSql(db: Db) {
  return {
    get: (idHash: string) => db.prepare(`SELECT ${SESSION_COLUMNS} FROM panel_sessions WHERE id_hash = ?`).get<PanelSessionRow>(idHash),
    insert(s: PanelSessionRow): void {
      db.prepare("INSERT INTO panel_sessions (id_hash, user_id, csrf_token, created_at_ms, last_seen_at_ms) VALUES (?, ?, ?, ?, ?)").run(
        s.idHash,
        s.userId,
        s.csrfToken,
        s.createdAtMs,
        s.lastSeenAtMs,
      );
    },
    touch: (idHash: string, atMs: number) =>
      db.prepare("UPDATE panel_sessions SET last_seen_at_ms = ? WHERE id_hash = ?").run(atMs, idHash),
    remove: (idHash: string) => db.prepare("DELETE FROM panel_sessions WHERE id_hash = ?").run(idHash).changes === 1,
    /** Disabling a user or resetting a password ends every session they have. */
    removeForUser: (userId: string) => db.prepare("DELETE FROM panel_sessions WHERE user_id = ?").run(userId).changes,
  };
}

const AUDIT_COLUMNS = "seq, partner_id AS partnerId, at_ms AS atMs, user_id AS userId, email, action, target, outcome, ip";

export function panelAuditSql(db: Db) {
  return {
    insert(a: AuditRow): void {
      db.prepare(
        "INSERT INTO panel_audit (partner_id, at_ms, user_id, email, action, target, outcome, ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      ).run(a.partnerId, a.atMs, a.userId, a.email, a.action, a.target, a.outcome, a.ip);
    },
    /** Newest first, keyset-paged on seq through the partner's index. */
    page: (partnerId: string, beforeSeq: number | null, limit: number) =>
      db
        .prepare(`SELECT ${AUDIT_COLUMNS} FROM panel_audit WHERE partner_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`)
        .all<AuditRow>(partnerId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit),
  };
}
