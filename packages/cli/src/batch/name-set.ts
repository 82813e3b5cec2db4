// The file names a batch has taken, to refuse a second row with the same name. A Set of the
// names themselves costs some 100 bytes a row (120 MB for a million rows); this keeps a 64-bit
// fingerprint and the line of each name in typed arrays, at most 24 bytes a row (12 at best),
// in an open-addressing table that doubles when half full. Two different names share a
// fingerprint with a chance of about n^2 / 2^65 (3 in 100 million for a million rows); the
// later one is then refused as taken, never written over the other.

/** Names seen, with the line that took each. */
export interface NameSet {
  /** The line that took `name` before, or undefined (and `name` is now taken by `line`). */
  take(name: string, line: number): number | undefined;
  readonly size: number;
}

/** An empty set of names. */
export function createNameSet(): NameSet {
  let slots = 1 << 12;
  let keys = new Uint32Array(slots * 2); // two halves of the fingerprint; 0,0 is empty
  let lines = new Uint32Array(slots);
  let size = 0;

  const place = (hi: number, lo: number, line: number): number | undefined => {
    let at = (lo ^ (hi >>> 7)) & (slots - 1);
    for (;;) {
      const h = keys[2 * at]!;
      const l = keys[2 * at + 1]!;
      if (h === 0 && l === 0) {
        keys[2 * at] = hi;
        keys[2 * at + 1] = lo;
        lines[at] = line;
        size++;
        return undefined;
      }
      if (h === hi && l === lo) return lines[at];
      at = (at + 1) & (slots - 1);
    }
  };
  const grow = () => {
    const oldKeys = keys;
    const oldLines = lines;
    slots *= 2;
    keys = new Uint32Array(slots * 2);
    lines = new Uint32Array(slots);
    size = 0;
    for (let i = 0; i < oldLines.length; i++) {
      const hi = oldKeys[2 * i]!;
      const lo = oldKeys[2 * i + 1]!;
      if (hi !== 0 || lo !== 0) place(hi, lo, oldLines[i]!);
    }
  };
  return {
    take(name, line) {
      if (size * 2 >= slots) grow();
      const [hi, lo] = fingerprint(name);
      return place(hi, lo, line);
    },
    get size() {
      return size;
    },
  };
}

/**
 * Two 32-bit FNV-1a hashes of the UTF-16 code units, with different offset bases and a final
 * mix each; never 0,0 (the empty slot).
 */
function fingerprint(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = mix(a ^ text.length);
  b = mix(b + text.length);
  if (a === 0 && b === 0) b = 1;
  return [a >>> 0, b >>> 0];
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
