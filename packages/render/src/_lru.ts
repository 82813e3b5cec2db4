/** A bounded map that forgets the least recently used entry first. */
export interface Lru<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  clear(): void;
  readonly size: number;
}

/**
 * An LRU of at most `max` entries on top of Map's insertion order: a hit moves the
 * entry to the end, so the first key is always the one to evict. Looks come from
 * user input, so every cache of per-look work must be bounded.
 */
export function createLru<K, V>(max: number): Lru<K, V> {
  const map = new Map<K, V>();
  return {
    get(key) {
      const value = map.get(key);
      if (value !== undefined) {
        map.delete(key);
        map.set(key, value);
      }
      return value;
    },
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      while (map.size > max) map.delete(map.keys().next().value as K);
    },
    delete(key) {
      map.delete(key);
    },
    clear() {
      map.clear();
    },
    get size() {
      return map.size;
    },
  };
}

/** An LRU bounded by the bytes its entries hold. */
export interface ByteLru<K, V> {
  get(key: K): V | undefined;
  /** The entry without counting it as a use. */
  peek(key: K): V | undefined;
  /** Adds or replaces an entry of `bytes`, then forgets the oldest until the total fits. */
  set(key: K, value: V, bytes: number): void;
  /** Corrects an entry's size once it is known (an atlas still being built is an estimate). */
  resize(key: K, bytes: number): void;
  delete(key: K): void;
  clear(): void;
  readonly size: number;
  /** The bytes the entries hold now, never more than `maxBytes` after a set. */
  readonly bytes: number;
  readonly maxBytes: number;
}

/**
 * An LRU whose bound is bytes, not entries: what a cache of images costs is their
 * pixels, and one 2400x1200 atlas weighs as much as a hundred small ones. An entry
 * larger than the whole budget is not kept (the caller still has its value).
 */
export function createByteLru<K, V>(
  maxBytes: number,
  maxEntries = Number.POSITIVE_INFINITY,
): ByteLru<K, V> {
  const map = new Map<K, { value: V; bytes: number }>();
  let total = 0;
  const evict = () => {
    while ((total > maxBytes || map.size > maxEntries) && map.size > 0) {
      const oldest = map.keys().next().value as K;
      total -= map.get(oldest)!.bytes;
      map.delete(oldest);
    }
  };
  return {
    get(key) {
      const entry = map.get(key);
      if (entry === undefined) return undefined;
      map.delete(key);
      map.set(key, entry);
      return entry.value;
    },
    peek(key) {
      return map.get(key)?.value;
    },
    set(key, value, bytes) {
      const old = map.get(key);
      if (old) {
        total -= old.bytes;
        map.delete(key);
      }
      if (bytes > maxBytes) return;
      map.set(key, { value, bytes });
      total += bytes;
      evict();
    },
    resize(key, bytes) {
      const entry = map.get(key);
      if (!entry) return;
      total += bytes - entry.bytes;
      entry.bytes = bytes;
      if (bytes > maxBytes) {
        total -= bytes;
        map.delete(key);
      }
      evict();
    },
    delete(key) {
      const entry = map.get(key);
      if (!entry) return;
      total -= entry.bytes;
      map.delete(key);
    },
    clear() {
      map.clear();
      total = 0;
    },
    get size() {
      return map.size;
    },
    get bytes() {
      return total;
    },
    maxBytes,
  };
}
