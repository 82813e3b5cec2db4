// GIF's variable-width LZW, written for this renderer. The dictionary is a direct
// table indexed by (prefix code, next index), so a lookup is one array read where
// a hashing encoder probes. And a stream can be built from segments that each
// start with a clear code: a segment that never changes (the panel rows above and
// below the digits) is encoded once, kept as raw bits and copied into later streams.
// One stream at a time per thread: encoding is synchronous, calls never interleave.

/** Raw code bits, as a stream segment kept for reuse. */
export interface LzwPiece {
  /** The bits, least significant first; the last byte holds `bits % 8` of them (all when 0). */
  bytes: Uint8Array;
  bits: number;
  /** Code width in force after the piece: the next code is written at this width. */
  width: number;
}

const MAX_CODES = 4096;
const MAX_BITS = 12;

// Entry (prefix << minCodeSize | index) holds the code of that string, 0 when
// absent (no string ever gets code 0: new codes start after the clear and end
// codes). Shifting by the palette's own bits keeps the table as small as it can
// be (512 KiB for 64 colours), so lookups stay in cache.
const table = new Uint16Array(MAX_CODES << 8);
// Which table entries are set, so a reset clears those alone, not 2 MiB.
const used = new Int32Array(MAX_CODES);
let usedCount = 0;
// Runs of one index are most of an image (the panel between and around glyphs).
// The dictionary holds runs of index c as strings c, cc, ccc... up to the longest
// one added so far, always without gaps: runCode[c << 12 | n] is the code of n
// times c, valid for n <= longestRun[c]. A run is then matched by scanning bytes
// for equality instead of one table lookup per pixel.
const runCode = new Uint16Array(256 << 12);
const longestRun = new Uint16Array(256);

let out = new Uint8Array(1 << 16);
let outLength = 0;
let acc = 0;
let accBits = 0;
let shift = 2;
let initBits = 3;
let nBits = 3;
let maxCode = 7;
let clearCode = 4;
let nextCode = 6;

/** Starts a new stream for indices of `paletteBits` bits (1..8). Nothing is written yet. */
export function lzwBegin(paletteBits: number): void {
  // LZW's minimum code size is at least 2 even for a two-colour palette.
  const minCodeSize = Math.max(2, paletteBits);
  shift = minCodeSize;
  initBits = minCodeSize + 1;
  clearCode = 1 << minCodeSize;
  outLength = 0;
  acc = 0;
  accBits = 0;
  resetCodes();
}

function resetCodes(): void {
  for (let i = 0; i < usedCount; i++) table[used[i]!] = 0;
  usedCount = 0;
  longestRun.fill(1);
  nBits = initBits;
  maxCode = (1 << nBits) - 1;
  nextCode = clearCode + 2;
}

function ensure(extra: number): void {
  if (outLength + extra <= out.length) return;
  let size = out.length * 2;
  while (size < outLength + extra) size *= 2;
  const next = new Uint8Array(size);
  next.set(out.subarray(0, outLength));
  out = next;
}

/** Writes one code at the current width; widens the codes when the table outgrows it. */
function put(code: number): void {
  acc |= code << accBits;
  accBits += nBits;
  while (accBits >= 8) {
    out[outLength++] = acc & 255;
    acc >>>= 8;
    accBits -= 8;
  }
  // The decoder adds an entry for every code after the first, one step behind the
  // encoder: comparing before this code's entry is added keeps both in step.
  if (nextCode > maxCode && nBits < MAX_BITS) {
    nBits++;
    maxCode = nBits === MAX_BITS ? MAX_CODES : (1 << nBits) - 1;
  }
}

/** Writes a clear code and starts the dictionary afresh. */
export function lzwClear(): void {
  ensure(4);
  put(clearCode);
  resetCodes();
}

/**
 * Encodes `pixels[from..to)` after a clear (written here) and ends with the last
 * string's code: the segment decodes on its own, whatever came before it.
 */
export function lzwSegment(pixels: Uint8Array, from: number, to: number): void {
  lzwClear();
  lzwRun(pixels, from, to);
}

/** The encoding loop, from a fresh dictionary (just after a clear). */
function lzwRun(pixels: Uint8Array, from: number, to: number): void {
  if (to <= from) return;
  // At most one code of 12 bits per pixel, plus a clear per 4096 codes.
  ensure(Math.ceil(((to - from) * 3) / 2) + 16);
  const t = table;
  const s = shift;
  let ent = pixels[from]!;
  // While `ent` is a run of one index: which, and how long (else runIndex is -1).
  let runIndex = ent;
  let runLength = 1;
  let i = from + 1;
  while (i < to) {
    const c = pixels[i]!;
    if (c === runIndex) {
      const longest = longestRun[c]!;
      if (runLength < longest) {
        // Greedy matching takes the run as far as it goes or the dictionary knows it.
        const limit = Math.min(to, i + (longest - runLength));
        let j = i + 1;
        while (j < limit && pixels[j] === c) j++;
        runLength += j - i;
        ent = runCode[(c << 12) | runLength]!;
        i = j;
        continue;
      }
      put(ent);
      if (nextCode < MAX_CODES) {
        // Runs live in runCode alone: a lookup in the table always has a mixed prefix.
        runLength++;
        runCode[(c << 12) | runLength] = nextCode++;
        longestRun[c] = runLength;
      } else {
        put(clearCode);
        resetCodes();
      }
      ent = c;
      runLength = 1;
      i++;
      continue;
    }
    const k = (ent << s) | c;
    const found = t[k]!;
    if (found !== 0) {
      ent = found;
      runIndex = -1;
      i++;
      continue;
    }
    put(ent);
    if (nextCode < MAX_CODES) {
      t[k] = nextCode++;
      used[usedCount++] = k;
    } else {
      put(clearCode);
      resetCodes();
    }
    ent = c;
    runIndex = c;
    runLength = 1;
    i++;
  }
  put(ent);
}

/** Appends a kept piece at the current bit position; its width becomes the current one. */
export function lzwAppend(piece: LzwPiece): void {
  ensure(piece.bytes.length + 4);
  const whole = piece.bits >> 3;
  const { bytes } = piece;
  for (let i = 0; i < whole; i++) {
    acc |= bytes[i]! << accBits;
    out[outLength++] = acc & 255;
    acc >>>= 8;
  }
  const rest = piece.bits & 7;
  if (rest > 0) {
    acc |= (bytes[whole]! & ((1 << rest) - 1)) << accBits;
    accBits += rest;
    while (accBits >= 8) {
      out[outLength++] = acc & 255;
      acc >>>= 8;
      accBits -= 8;
    }
  }
  nBits = piece.width;
}

/** Writes the end code and flushes the last bits. */
export function lzwEnd(): void {
  ensure(4);
  put(clearCode + 1);
  lzwFlush();
}

/** Flushes the last bits (after a tail piece, which holds the end code). */
export function lzwFlush(): void {
  if (accBits > 0) {
    out[outLength++] = acc & 255;
    acc = 0;
    accBits = 0;
  }
}

/** The bits written since {@link lzwBegin}, kept as a piece (the stream must not have ended). */
export function lzwPiece(): LzwPiece {
  const bytes = new Uint8Array(outLength + (accBits > 0 ? 1 : 0));
  bytes.set(out.subarray(0, outLength));
  if (accBits > 0) bytes[outLength] = acc & ((1 << accBits) - 1);
  return { bytes, bits: outLength * 8 + accBits, width: nBits };
}

/** Encodes `pixels[from..to)` with a palette of `2^paletteBits` colours into one piece. */
export type PieceEncoder = (
  pixels: Uint8Array,
  from: number,
  to: number,
  paletteBits: number,
) => LzwPiece;

/**
 * A piece that ends a stream: `pixels[from..to)` encoded from a fresh dictionary
 * (the caller writes the clear before appending it), then the end code.
 */
export const lzwTailPiece: PieceEncoder = (pixels, from, to, paletteBits) => {
  lzwBegin(paletteBits);
  lzwRun(pixels, from, to);
  put(clearCode + 1);
  return lzwPiece();
};

/**
 * A piece for the middle of a stream: `pixels[from..to)` from a fresh dictionary, no clear
 * and no end code. The caller writes the clear (at the width in force there) before
 * appending it, and a clear or the end after.
 */
export const lzwRunPiece: PieceEncoder = (pixels, from, to, paletteBits) => {
  lzwBegin(paletteBits);
  lzwRun(pixels, from, to);
  return lzwPiece();
};

/**
 * A piece that starts a stream: the first clear, then `pixels[from..to)`; the
 * caller continues with {@link lzwSegment}.
 */
export const lzwHeadPiece: PieceEncoder = (pixels, from, to, paletteBits) => {
  lzwBegin(paletteBits);
  lzwSegment(pixels, from, to);
  return lzwPiece();
};

/**
 * The finished stream as GIF image data: the minimum code size, the code bytes in
 * sub-blocks of at most 255, and the block terminator.
 */
export function lzwImageData(): Uint8Array {
  const blocks = Math.ceil(outLength / 255);
  const data = new Uint8Array(1 + outLength + blocks + 1);
  data[0] = initBits - 1;
  let at = 1;
  for (let from = 0; from < outLength; from += 255) {
    const n = Math.min(255, outLength - from);
    data[at++] = n;
    data.set(out.subarray(from, from + n), at);
    at += n;
  }
  data[at] = 0;
  return data;
}

/** One whole image, encoded in one segment: its GIF image data. */
export function lzwEncode(pixels: Uint8Array, paletteBits: number): Uint8Array {
  lzwBegin(paletteBits);
  lzwSegment(pixels, 0, pixels.length);
  lzwEnd();
  return lzwImageData();
}
