import type { MetaOps } from "../store";
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
  };
}
