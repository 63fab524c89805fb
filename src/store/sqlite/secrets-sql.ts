import type { Db } from "./db-types";
import { secretBox, type SecretBox } from "../secret-box";

// docs/operating.md: the columns that hold secrets, and re-sealing them all (a new master key, or the
// first one). Each value's additional data names its table, column and row.

const META_KEY_ID = "secrets.key_id";

const COLUMNS = [
  { table: "partners", column: "webhook_secret" },
  { table: "connections", column: "bank_config" },
] as const;

export const secretAad = (table: string, column: string, id: string): string => `${table}.${column}:${id}`;

/** Meta rows that hold a bank's own secret (`sim.secret`): sealed like the columns above. */
export const BANK_SECRET_SUFFIX = ".secret";
export const bankSecretKey = (bank: string): string => `${bank}${BANK_SECRET_SUFFIX}`;

export function secretsSql(db: Db, box: SecretBox = secretBox(null)) {
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
      const bankSecrets = db
        .prepare("SELECT key, value FROM meta WHERE key LIKE ?")
        .all<{ key: string; value: string }>(`%${BANK_SECRET_SUFFIX}`);
      for (const r of bankSecrets) {
        const aad = secretAad("meta", "value", r.key);
        db.prepare("UPDATE meta SET value = ? WHERE key = ?").run(to.seal(from.open(r.value, aad), aad), r.key);
        n++;
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
    bankSecret(bank: string, fresh: string): string {
      const key = bankSecretKey(bank);
      const aad = secretAad("meta", "value", key);
      db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING").run(key, box.seal(fresh, aad));
      return box.open(db.prepare("SELECT value FROM meta WHERE key = ?").get<{ value: string }>(key)?.value ?? null, aad) ?? fresh;
    },
  };
}
