// The frames of an animated GIF, LZW-encoded, with as little encoding as can be.
// A frame's pixels are a function of the atlas, its rectangle and the cells drawn
// in it, so its encoding is cached under exactly that: a ticking seconds digit
// has ten pictures, and every recipient of every timer of a look shares them.
// Frame 0 differs per recipient, but only in the band of rows the cells cover:
// the panel rows above and below are encoded once per atlas and copied.
import type { ByteLru } from "../_lru";
import { parseHex } from "../colors";
import type { Atlas } from "./atlas";
import {
  type CellRaster,
  type CellRasters,
  changedRect,
  extract,
  redraw,
  scratchCanvas,
  union,
} from "./composite";
import { bitsOf, type DeltaFrame, deltaFrame } from "./delta";
import type { GifFrame } from "./encode";
import {
  type LzwPiece,
  lzwAppend,
  lzwBegin,
  lzwClear,
  lzwEncode,
  lzwEnd,
  lzwFlush,
  lzwHeadPiece,
  lzwImageData,
  lzwSegment,
  lzwTailPiece,
} from "./lzw";
import type { Box, PlacedCell } from "./scene";

/** Encoded frames and frame-0 pieces by atlas, rectangle and the cells in it. */
export type FrameCache = ByteLru<string, Uint8Array | LzwPiece | DeltaFrame>;

/** Frame display time: one second, in GIF's hundredths. */
const FRAME_DELAY = 100;

/** The box of a frame that changes nothing: one pixel, repainted as it is. */
const NO_CHANGE: Box = { x: 0, y: 0, w: 1, h: 1 };

/** What a cache entry costs: its bytes, its key, the Map entry and object around them. */
function entryBytes(key: string, value: Uint8Array | LzwPiece | DeltaFrame): number {
  const n =
    value instanceof Uint8Array
      ? value.length
      : "bytes" in value
        ? value.bytes.length
        : value.data.length + 64;
  return n + key.length * 2 + 160;
}

function cached<T extends Uint8Array | LzwPiece | DeltaFrame>(
  cache: FrameCache,
  key: string,
  make: () => T,
): T {
  const hit = cache.get(key) as T | undefined;
  if (hit !== undefined) return hit;
  const value = make();
  cache.set(key, value, entryBytes(key, value));
  return value;
}

/** Rows and columns a placed cell's ink covers, clipped as redraw() clips it; null: none. */
function inkSpan(p: PlacedCell, cells: CellRasters): Box | null {
  const ink = cells.get(p.cell.key)?.ink;
  if (!ink) return null;
  const y = p.y + ink.y;
  const h = Math.min(p.h, ink.y + ink.h) - ink.y;
  return h > 0 ? { x: p.x + ink.x, y, w: ink.w, h } : null;
}

/** The part of a cache key that names the cells drawn inside `rect`, where they sit. */
function cellsIn(placed: readonly PlacedCell[], cells: CellRasters, rect: Box): string {
  let key = "";
  for (const p of placed) {
    const s = inkSpan(p, cells);
    if (!s) continue;
    if (s.x >= rect.x + rect.w || s.x + s.w <= rect.x) continue;
    if (s.y >= rect.y + rect.h || s.y + s.h <= rect.y) continue;
    key += `;${p.cell.key}@${p.x},${p.y},${p.h}`;
  }
  return key;
}

const boxKey = (b: Box) => `${b.x},${b.y},${b.w},${b.h}`;

// A cell's code size, once per cell of an atlas.
const cellBitsOf = new WeakMap<CellRaster, number>();
function cellBits(raster: CellRaster): number {
  let bits = cellBitsOf.get(raster);
  if (bits === undefined) {
    bits = bitsOf(raster.pixels);
    cellBitsOf.set(raster, bits);
  }
  return bits;
}

// The panel's own code size, per atlas: it bounds every frame 0 (which has the panel rows).
const baseBitsOf = new WeakMap<Atlas, number>();
function baseBits(atlas: Atlas): number {
  let bits = baseBitsOf.get(atlas);
  if (bits === undefined) {
    bits = bitsOf(atlas.base.pixels);
    baseBitsOf.set(atlas, bits);
  }
  return bits;
}

// The widest code any cell of the atlas needs: when the panel's is as wide (a look without
// emoji), no image's cells can widen frame 0's and the per-image look-up is skipped.
const cellsBitsOf = new WeakMap<Atlas, number>();
function cellsBits(atlas: Atlas): number {
  let bits = cellsBitsOf.get(atlas);
  if (bits === undefined) {
    bits = 1;
    for (const raster of atlas.cells.values()) bits = Math.max(bits, cellBits(raster));
    cellsBitsOf.set(atlas, bits);
  }
  return bits;
}

/**
 * Frame 0, whole. The rows above the first inked row and below the last are the
 * panel's, the same for every image of the atlas: they are kept as LZW pieces
 * and the stream restarts (a clear code) at the band's edges, so only the band
 * is encoded per image.
 */
function firstFrame(atlas: Atlas, placed: readonly PlacedCell[], cache: FrameCache): Uint8Array {
  const { base, cells, id } = atlas;
  const w = base.w;
  let top = base.h;
  let bottom = 0;
  for (const p of placed) {
    const s = inkSpan(p, cells);
    if (!s) continue;
    top = Math.min(top, Math.max(0, s.y));
    bottom = Math.max(bottom, Math.min(base.h, s.y + s.h));
  }
  if (top >= bottom) return cached(cache, `${id}|P`, () => lzwEncode(base.pixels, baseBits(atlas)));
  const canvas = scratchCanvas(base);
  redraw(canvas, placed, cells, { x: 0, y: top, w, h: bottom - top });
  // One code size for the whole stream: the panel's, or its cells' when they need more
  // (known per cell: scanning the band for each image would cost a tenth of it).
  let bits = baseBits(atlas);
  if (cellsBits(atlas) > bits)
    for (const p of placed) {
      const raster = cells.get(p.cell.key);
      if (raster) bits = Math.max(bits, cellBits(raster));
    }
  // Pieces first: making one uses the encoder, which the frame's stream then takes over.
  const head =
    top > 0
      ? cached(cache, `${id}|H${top}|${bits}`, () => lzwHeadPiece(base.pixels, 0, top * w, bits))
      : null;
  const tail =
    bottom < base.h
      ? cached(cache, `${id}|E${bottom}|${bits}`, () =>
          lzwTailPiece(base.pixels, bottom * w, base.h * w, bits),
        )
      : null;
  lzwBegin(bits);
  if (head) lzwAppend(head);
  lzwSegment(canvas.pixels, top * w, bottom * w);
  if (tail) {
    lzwClear();
    lzwAppend(tail);
    lzwFlush();
  } else {
    lzwEnd();
  }
  return lzwImageData();
}

/**
 * Every frame of the animation: frame 0 whole, then per frame only what changed.
 * `placed[k]` is frame k's cells.
 */
export function animationFrames(
  atlas: Atlas,
  placed: readonly PlacedCell[][],
  cache: FrameCache,
): GifFrame[] {
  const { base } = atlas;
  const frames: GifFrame[] = [
    {
      box: { x: 0, y: 0, w: base.w, h: base.h },
      data: firstFrame(atlas, placed[0]!, cache),
      delay: FRAME_DELAY,
      dispose: 1,
    },
  ];
  if (atlas.palette.transparentIndex >= 0) transparentFrames(atlas, placed, cache, frames);
  else opaqueFrames(atlas, placed, cache, frames);
  return frames;
}

/** A frame of `rect` showing `placed`, left in place: from the cache or encoded now. */
function steadyFrame(
  atlas: Atlas,
  placed: readonly PlacedCell[],
  rect: Box,
  cache: FrameCache,
): GifFrame {
  const { cells, id } = atlas;
  const key = `${id}|O${boxKey(rect)}${cellsIn(placed, cells, rect)}`;
  const data = cached(cache, key, () => {
    const canvas = scratchCanvas(atlas.base);
    redraw(canvas, placed, cells, rect);
    const pixels = extract(canvas, rect);
    return lzwEncode(pixels, bitsOf(pixels));
  });
  return { box: rect, data, delay: FRAME_DELAY, dispose: 1 };
}

/**
 * Opaque looks: each frame covers only the pixels that changed, left in place
 * (disposal 1) for the next, and inside that box what did not change is left
 * transparent when that encodes smaller (delta.ts). Its picture depends on the
 * cells of this frame and the one before inside the changed rectangle: the key.
 * A frame where nothing changed still gets its second: a one-pixel frame
 * repainting what is there.
 */
function opaqueFrames(
  atlas: Atlas,
  placed: readonly PlacedCell[][],
  cache: FrameCache,
  frames: GifFrame[],
): void {
  const { cells, id, base } = atlas;
  for (let k = 1; k < placed.length; k++) {
    const before = placed[k - 1]!;
    const after = placed[k]!;
    const rect = changedRect(before, after, cells, base);
    if (!rect) {
      frames.push(steadyFrame(atlas, after, NO_CHANGE, cache));
      continue;
    }
    const key = `${id}|D${boxKey(rect)}${cellsIn(after, cells, rect)}|${cellsIn(before, cells, rect)}`;
    const delta = cached(cache, key, () => {
      const canvas = scratchCanvas(base);
      redraw(canvas, before, cells, rect);
      const under = extract(canvas, rect);
      redraw(canvas, after, cells, rect);
      return deltaFrame(under, extract(canvas, rect), rect, atlas.palette.bits);
    });
    frames.push({
      box: delta.box,
      data: delta.data,
      delay: FRAME_DELAY,
      dispose: 1,
      ...(delta.transparent >= 0 ? { transparent: delta.transparent } : {}),
    });
  }
}

/**
 * Transparent looks: a drawn pixel can only turn transparent again when the
 * frame that covers it is cleared afterwards (disposal 2), and a cleared
 * rectangle must then be redrawn whole by the next frame. So frame k covers
 * every change up to frame k + 1 (the changes of the next step included, so
 * what turns transparent then is cleared after frame k), and the rectangles
 * only grow. Frame 1 sits on frame 0, which is never cleared (Outlook shows
 * frame 0 alone, so it must be whole): where frame 0 had ink and frame 1 has
 * none, frame 1 paints the matte colour, which the matte is chosen to hide.
 */
function transparentFrames(
  atlas: Atlas,
  placed: readonly PlacedCell[][],
  cache: FrameCache,
  frames: GifFrame[],
): void {
  const { cells, id, base } = atlas;
  const n = placed.length;
  const changes: Array<Box | null> = [null];
  for (let k = 1; k < n; k++) changes.push(changedRect(placed[k - 1]!, placed[k]!, cells, base));
  let area: Box | null = null;
  for (let k = 1; k < n; k++) {
    const before = area;
    area = union(union(area, changes[k]!), changes[k + 1] ?? null);
    if (!area) {
      // Nothing has changed yet: the second still gets its frame, a one-pixel repaint.
      frames.push(steadyFrame(atlas, placed[k]!, NO_CHANGE, cache));
      continue;
    }
    const rect = area;
    const first = before === null;
    // The first cleared-area frame lies on frame 0's pixels, which nothing cleared:
    // its picture depends on frame 0's cells there too.
    const key = `${id}|A${boxKey(rect)}${cellsIn(placed[k]!, cells, rect)}${
      first ? `|0${cellsIn(placed[0]!, cells, rect)}` : ""
    }`;
    const data = cached(cache, key, () => {
      const canvas = scratchCanvas(base);
      let under: Uint8Array | null = null;
      if (first) {
        redraw(canvas, placed[0]!, cells, rect);
        under = extract(canvas, rect);
      }
      redraw(canvas, placed[k]!, cells, rect);
      const pixels = extract(canvas, rect);
      if (under) {
        const t = atlas.palette.transparentIndex;
        const [mr, mg, mb] = parseHex(atlas.spec.colors.matte);
        const matte = atlas.indexOf((mr << 16) | (mg << 8) | mb);
        for (let i = 0; i < pixels.length; i++)
          if (pixels[i] === t && under[i] !== t) pixels[i] = matte;
      }
      return lzwEncode(pixels, bitsOf(pixels));
    });
    frames.push({ box: rect, data, delay: FRAME_DELAY, dispose: 2 });
  }
}
