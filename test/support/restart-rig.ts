import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { ManualClock } from "../../src/clock";
import { T0 } from "./harness";

// For restart tests: per test, a database file in a fresh temporary folder and one manual clock
// for every "process" opened on it, so time does not jump at a restart unless the test says so.
// Processes a test leaves open are closed after it, then the folder is removed.

export type RestartFiles = { path: string; clock: ManualClock };

export function useRestartRig<P extends { close(): Promise<void> }>(prefix: string, use: (files: RestartFiles) => void) {
  const open: P[] = [];
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    use({ path: join(dir, "kasa.db"), clock: new ManualClock(T0) });
  });
  afterEach(async () => {
    for (const p of open.splice(0)) await p.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** Closed after the test unless the test stops it first. */
    track(p: P): P {
      open.push(p);
      return p;
    },
    async stop(p: P): Promise<void> {
      open.splice(open.indexOf(p), 1);
      await p.close();
    },
  };
}
