/**
 * `make(key)`, kept per key: for pure functions a hot path calls with the same few keys again and
 * again (the texts of instants, a link's address, a caller's rate key). Past `max` entries the map
 * starts over, a cheap bound without LRU bookkeeping. `make` may throw; nothing is kept then.
 */
export function kept<K, V>(max: number, make: (key: K) => V): (key: K) => V {
  const values = new Map<K, V>();
  return (key: K): V => {
    let value = values.get(key);
    if (value === undefined) {
      value = make(key);
      if (values.size >= max) values.clear();
      values.set(key, value);
    }
    return value;
  };
}
