import type { SecretBox } from "../secret-box";
import { BANK_SECRET_SUFFIX, bankSecretKey, secretAad } from "../sqlite/secrets-sql";
import type { SecretsOps } from "../store";
import type { Pg } from "./pg";

// docs/operating.md on PostgreSQL: the columns that hold secrets, and re-sealing them all. The table and
// column names come from the constant list below and reach SQL as quoted identifiers, never values.

const META_KEY_ID = "secrets.key_id";

const COLUMNS = [
  { table: "partners", column: "webhook_secret" },
  { table: "connections", column: "bank_config" },
] as const;

export function secretsPg(sql: Pg, box: SecretBox): SecretsOps {
  return {
    sealedBy: async () => (await sql<{ value: string }[]>`SELECT value FROM meta WHERE key = ${META_KEY_ID}`)[0]?.value ?? null,
    async reseal(from: SecretBox, to: SecretBox) {
      // SQLite's single writer keeps every other write out while the secrets are rewritten. Here
      // the two tables are locked against writes (reads go on) until the caller's transaction
      // ends, so no row is added or changed under the old key after it was read.
      await sql`LOCK TABLE partners, connections IN EXCLUSIVE MODE`;
      let n = 0;
      for (const { table, column } of COLUMNS) {
        const rows = await sql<{ id: string; value: string }[]>`
          SELECT id, ${sql(column)} AS value FROM ${sql(table)} WHERE ${sql(column)} IS NOT NULL`;
        for (const r of rows) {
          const aad = secretAad(table, column, r.id);
          await sql`UPDATE ${sql(table)} SET ${sql(column)} = ${to.seal(from.open(r.value, aad), aad)} WHERE id = ${r.id}`;
          n++;
        }
      }
      const bankSecrets = await sql<{ key: string; value: string }[]>`
        SELECT key, value FROM meta WHERE key LIKE ${`%${BANK_SECRET_SUFFIX}`} FOR UPDATE`;
      for (const r of bankSecrets) {
        const aad = secretAad("meta", "value", r.key);
        await sql`UPDATE meta SET value = ${to.seal(from.open(r.value, aad), aad)} WHERE key = ${r.key}`;
        n++;
      }
      if (to.keyId === null) await sql`DELETE FROM meta WHERE key = ${META_KEY_ID}`;
      else {
        await sql`INSERT INTO meta (key, value) VALUES (${META_KEY_ID}, ${to.keyId})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
      }
      return n;
    },
    async bankSecret(bank, fresh) {
      const key = bankSecretKey(bank);
      const aad = secretAad("meta", "value", key);
      await sql`INSERT INTO meta (key, value) VALUES (${key}, ${box.seal(fresh, aad)}) ON CONFLICT (key) DO NOTHING`;
      const stored = (await sql<{ value: string }[]>`SELECT value FROM meta WHERE key = ${key}`)[0]?.value ?? null;
      return box.open(stored, aad) ?? fresh;
    },
  };
}
