// The public routes remember, per viewer, whether something was already done (a viewer mark
// written, a first view offered to the webhook rules). As a Map of string keys that costs a
// hundred and more bytes of the main thread's heap per entry, taken one new recipient at a
// time, which the soak (bench/soak.mjs) saw as RSS growth long after warm-up. Here every entry
// is a 64-bit fingerprint of its key in typed arrays allocated once, at their bound: filling
// the table moves no memory, and the heap holds a few fixed objects whatever it contains.

import { randomFillSync } from "node:crypto";

/** Filled to at most this share of its slots: linear probing stays at one or two reads. */
const MAX_LOAD = 0.75;
const MIN_SLOTS = 8;

/**
 * A set of string keys (a map to numbers when created with values) of at most `maxEntries`
 * keys, in memory fixed at creation. Keys are kept as 64-bit fingerprints, never as strings:
 * two distinct keys are taken for one with a probability of about n² / 2⁶⁵ (1 in 3.7 billion
 * for 100,000 keys), and the fingerprints are seeded per table, so no key can be chosen to
 * collide with another.
 */
export interface FingerprintTable {
  /** Keys held now. */
  readonly size: number;
  /** The bound: `set` of one more new key starts the table over. */
  readonly maxEntries: number;
  /** Bytes of its arrays, the same from creation on, however full. */
  readonly bytes: number;
  has(key: string): boolean;
  /** The number stored with `key` (0 when the table keeps no values), or undefined. */
  get(key: string): number | undefined;
  /**
   * Adds `key` (with `value`, when the table keeps values). A new key when `maxEntries` are
   * held empties the table first: it starts over, like the Maps it replaces, whose callers
   * count a forgotten key as one more write, never as a wrong answer.
   */
  set(key: string, value?: number): void;
  /** Forgets `key`; true when it was held. */
  delete(key: string): boolean;
  clear(): void;
}

/** Slots for `maxEntries` at most `MAX_LOAD` full: a power of two, for the mask. */
function slotsFor(maxEntries: number): number {
  let slots = MIN_SLOTS;
  while (slots * MAX_LOAD < maxEntries) slots *= 2;
  return slots;
}

/** 32-bit finaliser (murmur3's): every input bit moves about half the output bits. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Creates a table of at most `maxEntries` keys (1 or more); `withValues` adds a number per
 * key. Its bytes: 8 per slot for the fingerprints, 8 more with values, the slots being the
 * power of two that keeps `maxEntries` at most three quarters full (262,144 for 100,000).
 */
export function createFingerprintTable(
  maxEntries: number,
  { withValues = false }: { withValues?: boolean } = {},
): FingerprintTable {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }
  const slots = slotsFor(maxEntries);
  const mask = slots - 1;
  // Slot i: fingerprint's high word at 2i, low word at 2i + 1; both 0 means empty.
  const prints = new Uint32Array(slots * 2);
  const values = withValues ? new Float64Array(slots) : null;
  // Random seeds: the fingerprints of one table cannot be computed, nor collisions sought,
  // outside this process.
  const seeds = randomFillSync(new Uint32Array(2));
  let size = 0;
  // The last fingerprint, in two words: no object per lookup.
  let hi = 0;
  let lo = 0;

  /** Two independently seeded 32-bit hashes of the key's UTF-16 code units. */
  const fingerprint = (key: string) => {
    let a = seeds[0]!;
    let b = seeds[1]!;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0xcc9e2d51);
      a = Math.imul((a << 15) | (a >>> 17), 0x1b873593);
      b = Math.imul(b ^ c, 0x9e3779b1);
      b = Math.imul((b << 13) | (b >>> 19), 0x85ebca77);
    }
    hi = mix(a ^ key.length);
    lo = mix(b ^ Math.imul(key.length, 0x27d4eb2f) ^ hi);
    // (0, 0) marks an empty slot.
    if (hi === 0 && lo === 0) lo = 1;
  };

  const empty = (slot: number) => prints[2 * slot] === 0 && prints[2 * slot + 1] === 0;

  /** The slot holding the last fingerprint, or the empty slot where it would go. */
  const find = (): number => {
    let slot = lo & mask;
    for (;;) {
      const h = prints[2 * slot]!;
      const l = prints[2 * slot + 1]!;
      if ((h === hi && l === lo) || (h === 0 && l === 0)) return slot;
      slot = (slot + 1) & mask;
    }
  };

  const clear = () => {
    if (size === 0) return;
    prints.fill(0);
    values?.fill(0);
    size = 0;
  };

  return {
    get size() {
      return size;
    },
    maxEntries,
    bytes: prints.byteLength + (values?.byteLength ?? 0),
    has(key) {
      fingerprint(key);
      return !empty(find());
    },
    get(key) {
      fingerprint(key);
      const slot = find();
      if (empty(slot)) return undefined;
      return values ? values[slot]! : 0;
    },
    set(key, value = 0) {
      fingerprint(key);
      let slot = find();
      if (empty(slot)) {
        if (size >= maxEntries) {
          clear();
          slot = find();
        }
        prints[2 * slot] = hi;
        prints[2 * slot + 1] = lo;
        size++;
      }
      if (values) values[slot] = value;
    },
    delete(key) {
      fingerprint(key);
      let hole = find();
      if (empty(hole)) return false;
      // Backward shift: later entries of the run move into the hole unless that would put
      // them before their home slot, so lookups never need tombstones.
      let next = hole;
      for (;;) {
        next = (next + 1) & mask;
        if (empty(next)) break;
        const home = prints[2 * next + 1]! & mask;
        const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
        if (stays) continue;
        prints[2 * hole] = prints[2 * next]!;
        prints[2 * hole + 1] = prints[2 * next + 1]!;
        if (values) values[hole] = values[next]!;
        hole = next;
      }
      prints[2 * hole] = 0;
      prints[2 * hole + 1] = 0;
      if (values) values[hole] = 0;
      size--;
      return true;
    },
    clear,
  };
}
