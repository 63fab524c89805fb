import { wallNowMs } from "../../clock";
import type { Log } from "../../deps";
import type { Store } from "../../store/store";
import type { RateLimiter } from "./limiter";

/**
 * docs/postgresql.md: rate limits across instances. Each instance on a shared database registers a
 * heartbeat (wall clock) and renews it every HEARTBEAT_EVERY_MS; one that stopped renewing is gone
 * after HEARTBEAT_TTL_MS. After each beat the limiter admits this instance's share of every budget
 * (limiter.ts shareOf): its place among the live instances' ids and their number. Uneven traffic
 * can be refused early by one instance while another has room: the README says so.
 */
export const HEARTBEAT_EVERY_MS = 10_000;
export const HEARTBEAT_TTL_MS = 30_000;

export type InstanceHeartbeat = { readonly id: string; beat(): Promise<void>; stop(): Promise<void> };

export function instanceHeartbeat(store: Store, limiter: RateLimiter, log: Log, id: string): InstanceHeartbeat {
  let timer: ReturnType<typeof setInterval> | undefined;
  const beat = async () => {
    const nowMs = wallNowMs();
    const live = await store.write((tx) => tx.meta.heartbeat(id, nowMs + HEARTBEAT_TTL_MS, nowMs));
    // Its own heartbeat was just renewed, so it is among the live ones.
    limiter.setShare(Math.max(0, live.indexOf(id)), Math.max(1, live.length));
  };
  return {
    id,
    async beat() {
      await beat();
      timer ??= setInterval(() => {
        beat().catch((error: unknown) => log.warn("instance heartbeat failed; the last share stays", { error }));
      }, HEARTBEAT_EVERY_MS);
      (timer as { unref?: () => void }).unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      const nowMs = wallNowMs();
      // Leaving is a courtesy: if the database is gone already, the heartbeat runs out by itself.
      await store.write((tx) => tx.meta.heartbeat(id, nowMs, nowMs)).catch(() => {});
    },
  };
}
