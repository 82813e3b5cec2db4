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
 * The smaller (by their runs of one index) of two encodings of `after` drawn over `before` (both `rect` of the canvas,
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
  // Per row, the first and last pixel that differ: most rows hold none or a few.
  for (let y = 0; y < rect.h; y++) {
    const row = y * w;
    let a = 0;
    while (a < w && after[row + a] === before[row + a]) a++;
    if (a === w) continue;
    let b = w - 1;
    while (after[row + b] === before[row + b]) b--;
    if (a < x0) x0 = a;
    if (b > x1) x1 = b;
    if (y0 > y) y0 = y;
    y1 = y;
  }
  if (x1 < 0) {
    // No pixel changed, so none takes index 0: one transparent pixel.
    const pixel = Uint8Array.of(0);
    return { box: { x: rect.x, y: rect.y, w: 1, h: 1 }, data: lzwEncode(pixel, 1), transparent: 0 };
  }
  const box = { x: rect.x + x0, y: rect.y + y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  // One pass over the box: the indices changed pixels take, and where the next pixel
  // differs from the one before in each encoding. LZW's output grows with these edges,
  // not with the pixels between them, so they tell which of the two encodes smaller
  // without encoding both (which doubled the cost of a frame not cached). An unchanged
  // pixel is -2 here: it becomes an index no changed pixel takes, so it compares the same.
  const taken = new Uint8Array(256);
  let drawnEdges = 0;
  let keptEdges = 0;
  let lastDrawn = -1;
  let lastKept = -1;
  for (let y = 0; y < box.h; y++) {
    const from = (y0 + y) * w + x0;
    for (let x = 0; x < box.w; x++) {
      const p = after[from + x]!;
      if (p !== lastDrawn) drawnEdges++;
      lastDrawn = p;
      let k = -2;
      if (p !== before[from + x]) {
        taken[p] = 1;
        k = p;
      }
      if (k !== lastKept) keptEdges++;
      lastKept = k;
    }
  }
  let free = taken.indexOf(0);
  if (free >= 1 << tableBits) free = -1;
  const pixels = new Uint8Array(box.w * box.h);
  const masked = free >= 0 && keptEdges < drawnEdges;
  for (let y = 0; y < box.h; y++) {
    const from = (y0 + y) * w + x0;
    const to = y * box.w;
    if (!masked) pixels.set(after.subarray(from, from + box.w), to);
    else
      for (let x = 0; x < box.w; x++) {
        const p = after[from + x]!;
        pixels[to + x] = p === before[from + x] ? free : p;
      }
  }
  return { box, data: lzwEncode(pixels, bitsOf(pixels)), transparent: masked ? free : -1 };
}
