import { InvariantError } from "../../invariant";
import type { Repos } from "../store";

// Issue 18: units of work are async, yet on SQLite a batch must still run from BEGIN to COMMIT
// without anything else of the process running in between (anything else would read, through the
// same connection, rows a later unit failure can still roll back). A unit that awaits only its own
// repo calls never leaves the microtask queue, because SQLite answers synchronously; so a
// macrotask (`setImmediate`) that fires while a unit is still pending proves that the unit waits
// on something else: a timer, a fetch, a bank call. That unit is failed and rolled back, and its
// `tx` is revoked, so it cannot write into a later unit's transaction when whatever it awaited
// finally answers.

export class StalledUnitError extends InvariantError {
  override name = "StalledUnitError";
}

export type StallWatch = {
  /** Settles as `unit` does, or rejects with StalledUnitError if a macrotask comes first. */
  race<T>(unit: Promise<T>): Promise<T>;
  stop(): void;
};

export function stallWatch(): StallWatch {
  let fail: ((error: Error) => void) | null = null;
  let timer: ReturnType<typeof setImmediate> | null = null;
  const arm = (): void => {
    timer = setImmediate(() => {
      timer = null;
      const current = fail;
      fail = null;
      current?.(new StalledUnitError("a unit of work waited on something other than its own repo calls"));
      arm();
    });
  };
  arm();
  return {
    race<T>(unit: Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        fail = reject;
        unit.then(
          (value) => {
            if (fail === reject) fail = null;
            resolve(value);
          },
          (error: unknown) => {
            if (fail === reject) fail = null;
            reject(error);
          },
        );
      });
    },
    stop() {
      if (timer) clearImmediate(timer);
      timer = null;
      fail = null;
    },
  };
}

export type UnitScope = { tx: Repos; close(): void };
export type UnitScopes = { open(): UnitScope };

/**
 * Each unit gets its own `tx`: an object whose every repo group is reached through a getter that
 * checks the unit is still running. One small object per unit, the groups themselves shared.
 */
export function unitScopes(repos: Repos): UnitScopes {
  const proto = {} as Record<string, unknown>;
  for (const name of Object.keys(repos)) {
    Object.defineProperty(proto, name, {
      get(this: { live: boolean }) {
        if (!this.live) throw new InvariantError(`tx.${name} used after its unit of work ended`);
        return repos[name as keyof Repos];
      },
    });
  }
  return {
    open() {
      const scope = Object.create(proto) as { live: boolean };
      scope.live = true;
      return {
        tx: scope as unknown as Repos,
        close() {
          scope.live = false;
        },
      };
    },
  };
}

/**
 * `store.q`: reads outside units. While a batch runs (which only happens across a macrotask when a
 * unit broke the rule above), a read waits for its end, so it only ever sees committed rows.
 */
export function committedReads(repos: Repos, running: () => Promise<void> | null): Repos {
  const deferred = {} as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;
  for (const [name, group] of Object.entries(repos)) {
    const ops = {} as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const [op, fn] of Object.entries(group as Record<string, (...args: unknown[]) => Promise<unknown>>)) {
      ops[op] = async (...args) => {
        let batch = running();
        while (batch !== null) {
          await batch;
          batch = running();
        }
        return fn(...args);
      };
    }
    deferred[name] = ops;
  }
  const q = {} as Record<string, unknown>;
  for (const name of Object.keys(repos)) {
    Object.defineProperty(q, name, { get: () => (running() !== null ? deferred[name] : repos[name as keyof Repos]) });
  }
  return q as unknown as Repos;
}
