import type { Repos, Store, Unit } from "../../src/store/store";

/**
 * Runs every unit the store is given with `patch(tx)` in place of its `tx`, until the returned
 * function is called: how a test makes one named operation fail or race inside the service's own
 * units, whatever the store. (Patching `store.q` is not the same thing: a PostgreSQL unit gets
 * operations bound to its own transaction, never the pool's.)
 */
export function patchUnits(store: Store, patch: (tx: Repos) => Partial<Repos>): () => void {
  const write = store.write;
  store.write = <T>(unit: Unit<T>): Promise<T> => write.call(store, (tx: Repos) => unit({ ...tx, ...patch(tx) })) as Promise<T>;
  return () => {
    store.write = write;
  };
}
