// A frame of an opaque look drawn over the one before it (disposal 1): only pixels
// that change need drawing. The rest of its rectangle may be left transparent, so
// the previous frame shows through: a ring one step on changes a few hundred
// anti-aliased pixels scattered over its whole box, and those as runs of one
// transparent index cost LZW a fraction of repainting the box.
import { lzwEncode } from "./lzw";
import type { Box } from "./scene";

/** A frame's rectangle, its LZW image data and the index it leaves transparent (-1: none). */
export interface DeltaFrame {
  box: Box;
  data: Uint8Array;
  transparent: number;
}

/**
 * The fewest bits that index every pixel of `pixels`: a frame's own LZW code size.
 * GIF takes one per frame, whatever the colour table's size, and palettes list their most
 * used colours first: a frame of digits alone indexes only the first few dozen colours, and
 * narrower codes are less to encode.
 */
export function bitsOf(pixels: Uint8Array, from = 0, to = pixels.length): number {
  let max = 0;
  for (let i = from; i < to; i++) if (pixels[i]! > max) max = pixels[i]!;
  return max < 2 ? 1 : 32 - Math.clz32(max);
}

/**
 * The smaller of two encodings of `after` drawn over `before` (both `rect` of the canvas,
 * row by row, palette indices of a table of `2^tableBits` colours), cropped to the pixels
 * that differ: those pixels as they are, or with every unchanged one turned into an index
 * that no changed pixel takes (the first free one), marked transparent. Either decodes to
 * `after` over `before`. When nothing differs, one transparent pixel (or, with no free
 * index, one repainted as it is): the second still gets its frame.
 */
export function deltaFrame(
  before: Uint8Array,
  after: Uint8Array,
  rect: Box,
  tableBits: number,
): DeltaFrame {
  const { w } = rect;
  let x0 = w;
  let x1 = -1;
  let y0 = rect.h;
  let y1 = -1;
  const taken = new Uint8Array(256);
  for (let y = 0; y < rect.h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const p = after[row + x]!;
      if (p === before[row + x]) continue;
      taken[p] = 1;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  let free = taken.indexOf(0);
  if (free >= 1 << tableBits) free = -1;
  if (x1 < 0) {
    const box = { x: rect.x, y: rect.y, w: 1, h: 1 };
    const pixel = Uint8Array.of(free >= 0 ? free : after[0]!);
    return { box, data: lzwEncode(pixel, bitsOf(pixel)), transparent: free };
  }
  const box = { x: rect.x + x0, y: rect.y + y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  const drawn = new Uint8Array(box.w * box.h);
  const kept = free >= 0 ? new Uint8Array(box.w * box.h) : null;
  for (let y = 0; y < box.h; y++) {
    const from = (y0 + y) * w + x0;
    const to = y * box.w;
    for (let x = 0; x < box.w; x++) {
      const p = after[from + x]!;
      drawn[to + x] = p;
      if (kept) kept[to + x] = p === before[from + x] ? free : p;
    }
  }
  const plain = lzwEncode(drawn, bitsOf(drawn));
  if (!kept) return { box, data: plain, transparent: -1 };
  const masked = lzwEncode(kept, bitsOf(kept));
  return masked.length < plain.length
    ? { box, data: masked, transparent: free }
    : { box, data: plain, transparent: -1 };
}
