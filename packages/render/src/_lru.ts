/** A bounded map that forgets the least recently used entry first. */
export interface Lru<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  clear(): void;
  readonly size: number;
}

/**
 * An LRU of at most `max` entries. Looks come from user input, so every cache of per-look
 * work must be bounded.
 */
export function createLru<K, V>(max: number): Lru<K, V> {
  const lru = createByteLru<K, V>(Number.POSITIVE_INFINITY, max);
  return {
    get: (key) => lru.get(key),
    set: (key, value) => lru.set(key, value, 0),
    delete: (key) => lru.delete(key),
    clear: () => lru.clear(),
    get size() {
      return lru.size;
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

/** An entry of a byte LRU, in a list from the least recently used to the most. */
interface Entry<K, V> {
  key: K;
  value: V;
  bytes: number;
  older: Entry<K, V> | null;
  newer: Entry<K, V> | null;
}

/**
 * An LRU whose bound is bytes, not entries: what a cache of images costs is their
 * pixels, and one 2400x1200 atlas weighs as much as a hundred small ones. An entry
 * larger than the whole budget is not kept (the caller still has its value).
 * A hit relinks its entry in a list instead of deleting and re-adding it to the Map:
 * a GIF looks up 60 frames, and the Map's churn was a twentieth of an image's time.
 */
export function createByteLru<K, V>(
  maxBytes: number,
  maxEntries = Number.POSITIVE_INFINITY,
): ByteLru<K, V> {
  const map = new Map<K, Entry<K, V>>();
  let oldest: Entry<K, V> | null = null;
  let newest: Entry<K, V> | null = null;
  let total = 0;
  const unlink = (e: Entry<K, V>) => {
    if (e.older) e.older.newer = e.newer;
    else oldest = e.newer;
    if (e.newer) e.newer.older = e.older;
    else newest = e.older;
    e.older = null;
    e.newer = null;
  };
  const append = (e: Entry<K, V>) => {
    e.older = newest;
    e.newer = null;
    if (newest) newest.newer = e;
    else oldest = e;
    newest = e;
  };
  const remove = (e: Entry<K, V>) => {
    unlink(e);
    map.delete(e.key);
    total -= e.bytes;
  };
  const evict = () => {
    while ((total > maxBytes || map.size > maxEntries) && oldest) remove(oldest);
  };
  return {
    get(key) {
      const entry = map.get(key);
      if (entry === undefined) return undefined;
      if (entry !== newest) {
        unlink(entry);
        append(entry);
      }
      return entry.value;
    },
    peek(key) {
      return map.get(key)?.value;
    },
    set(key, value, bytes) {
      const old = map.get(key);
      if (old) remove(old);
      if (bytes > maxBytes) return;
      const entry: Entry<K, V> = { key, value, bytes, older: null, newer: null };
      map.set(key, entry);
      append(entry);
      total += bytes;
      evict();
    },
    resize(key, bytes) {
      const entry = map.get(key);
      if (!entry) return;
      total += bytes - entry.bytes;
      entry.bytes = bytes;
      if (bytes > maxBytes) remove(entry);
      evict();
    },
    delete(key) {
      const entry = map.get(key);
      if (entry) remove(entry);
    },
    clear() {
      map.clear();
      oldest = null;
      newest = null;
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
