import type { Db } from "./db-types";

export const INSTANCE_PREFIX = "instance:";

/** Small key/value facts of the deployment: sandbox clock offset, sim-bank secret. */
export function metaSql(db: Db) {
  return {
    get: (key: string) => db.prepare("SELECT value FROM meta WHERE key = ?").get<{ value: string }>(key)?.value,
    set: (key: string, value: string) =>
      void db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value),
    /** Inserts only when absent; answers the value that is now stored. */
    setOnce(key: string, value: string): string {
      db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING").run(key, value);
      return db.prepare("SELECT value FROM meta WHERE key = ?").get<{ value: string }>(key)?.value ?? value;
    },
    /** docs/postgresql.md: instance heartbeats are meta rows `instance:<id>` holding their expiry (store.ts). */
    heartbeat(instanceId: string, untilMs: number, nowMs: number): string[] {
      db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
        `${INSTANCE_PREFIX}${instanceId}`,
        String(untilMs),
      );
      db.prepare("DELETE FROM meta WHERE key LIKE 'instance:%' AND CAST(value AS INTEGER) <= ?").run(nowMs);
      return db
        .prepare("SELECT substr(key, 10) AS id FROM meta WHERE key LIKE 'instance:%' ORDER BY key")
        .all<{ id: string }>()
        .map((r) => r.id);
    },
  };
}
