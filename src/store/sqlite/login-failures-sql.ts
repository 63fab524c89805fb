import type { LoginFailureRow } from "../rows";
import type { Db } from "./db-types";

// Panel password checks that did not succeed (docs/panel.md, Getting in). SQLite runs one unit at
// a time, so `lock` has nothing to do: the unit that reads the count also inserts the next row.

export function loginFailuresSql(db: Db) {
  return {
    lock: async (_email: string) => {},
    since: (email: string, sinceMs: number, limit: number) =>
      db
        .prepare(
          "SELECT seq, ip, at_ms AS atMs FROM panel_login_failures WHERE email = ? AND at_ms >= ? ORDER BY at_ms DESC, seq DESC LIMIT ?",
        )
        .all<LoginFailureRow>(email, sinceMs, limit),
    insert: (email: string, ip: string, atMs: number) =>
      db.prepare("INSERT INTO panel_login_failures (email, ip, at_ms) VALUES (?, ?, ?) RETURNING seq").get<{ seq: number }>(email, ip, atMs)
        ?.seq ?? 0,
    remove(seq: number): void {
      db.prepare("DELETE FROM panel_login_failures WHERE seq = ?").run(seq);
    },
    clear(email: string, ip: string | null): void {
      if (ip === null) db.prepare("DELETE FROM panel_login_failures WHERE email = ?").run(email);
      else db.prepare("DELETE FROM panel_login_failures WHERE email = ? AND ip = ?").run(email, ip);
    },
    prune(beforeMs: number): void {
      db.prepare("DELETE FROM panel_login_failures WHERE at_ms < ?").run(beforeMs);
    },
  };
}
