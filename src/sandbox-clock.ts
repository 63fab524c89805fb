import { SandboxClock, type Clock } from "./clock";
import type { Deps } from "./deps";
import type { Store } from "./store/store";

// Sandbox mode runs on a movable clock whose offset lives in the database: the
// server, the CLI and the sandbox's clock API read and write it here.

export const CLOCK_OFFSET_KEY = "sandbox.clock_offset_ms";

export async function sandboxClockFor(store: Store, base?: Clock): Promise<SandboxClock> {
  return new SandboxClock(Number((await store.q.meta.get(CLOCK_OFFSET_KEY)) ?? "0"), base);
}

/**
 * A sandbox instance on a shared database adopts a clock move another instance made
 * (the offset in the database is larger than its own); the clock never moves back.
 */
export async function followSandboxClock(deps: Deps): Promise<void> {
  if (!(deps.clock instanceof SandboxClock)) return;
  const stored = Number((await deps.store.q.meta.get(CLOCK_OFFSET_KEY)) ?? "0");
  if (stored > deps.clock.offset) deps.clock.moveTo(deps.clock.nowMs() + (stored - deps.clock.offset));
}
