import type { Db } from "./db-types";
import type { SecretBox } from "../secret-box";

// Product 19: the columns that hold secrets, and re-sealing them all (a new master key, or the
// first one). Each value's additional data names its table, column and row.

const META_KEY_ID = "secrets.key_id";

const COLUMNS = [
  { table: "partners", column: "webhook_secret" },
  { table: "connections", column: "bank_config" },
] as const;

export const secretAad = (table: string, column: string, id: string): string => `${table}.${column}:${id}`;

export function secretsSql(db: Db) {
  const sealedBy = (): string | null =>
    db.prepare("SELECT value FROM meta WHERE key = ?").get<{ value: string }>(META_KEY_ID)?.value ?? null;
  return {
    /** The id of the master key the database's secrets are sealed with; null while they are in clear. */
    sealedBy,
    /**
     * Every secret opened with `from` and sealed with `to` (in clear when `to` has no key), and the
     * key recorded; the caller runs it in one transaction. Answers how many values it rewrote.
     */
    reseal(from: SecretBox, to: SecretBox): number {
      let n = 0;
      for (const { table, column } of COLUMNS) {
        const rows = db
          .prepare(`SELECT id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL`)
          .all<{ id: string; value: string }>();
        for (const r of rows) {
          const aad = secretAad(table, column, r.id);
          db.prepare(`UPDATE ${table} SET ${column} = ? WHERE id = ?`).run(to.seal(from.open(r.value, aad), aad), r.id);
          n++;
        }
      }
      if (to.keyId === null) db.prepare("DELETE FROM meta WHERE key = ?").run(META_KEY_ID);
      else {
        db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
          META_KEY_ID,
          to.keyId,
        );
      }
      return n;
    },
  };
}
