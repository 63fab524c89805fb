import type { MetaOps } from "../store";
import { INSTANCE_PREFIX } from "../sqlite/meta-sql";
import type { Pg } from "./pg";

export function metaPg(sql: Pg): MetaOps {
  return {
    get: async (key) => (await sql<{ value: string }[]>`SELECT value FROM meta WHERE key = ${key}`)[0]?.value,
    async set(key, value) {
      await sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    },
    async setOnce(key, value) {
      await sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`;
      return (await sql<{ value: string }[]>`SELECT value FROM meta WHERE key = ${key}`)[0]!.value;
    },
    // As sqlite/meta-sql.ts; one statement each, so instances beating at once never block each other long.
    async heartbeat(instanceId, untilMs, nowMs) {
      await sql`INSERT INTO meta (key, value) VALUES (${`${INSTANCE_PREFIX}${instanceId}`}, ${String(untilMs)})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
      await sql`DELETE FROM meta WHERE key LIKE 'instance:%' AND value::bigint <= ${nowMs}`;
      const rows = await sql<{ id: string }[]>`SELECT substr(key, 10) AS id FROM meta WHERE key LIKE 'instance:%' ORDER BY key COLLATE "C"`;
      return rows.map((r) => r.id);
    },
  };
}
