// A tiny size-bounded memo. Entries are pure functions of their key, so dropping
// the oldest entry never changes an answer, only what it costs.

/** A Map that forgets its oldest entry beyond `limit` entries. */
export function boundedCache<K, V>(
  limit: number,
): {
  get(key: K, make: () => V): V;
} {
  const map = new Map<K, V>();
  return {
    get(key, make) {
      const hit = map.get(key);
      if (hit !== undefined) return hit;
      const value = make();
      // Map iterates in insertion order, so the first key is the oldest.
      if (map.size >= limit) map.delete(map.keys().next().value as K);
      map.set(key, value);
      return value;
    },
  };
}
