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
  lzwRunPiece,
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
  const rx1 = rect.x + rect.w;
  const ry1 = rect.y + rect.h;
  for (const p of placed) {
    // inkSpan's test, without a box made per cell per frame (this runs twice per frame).
    const ink = cells.get(p.cell.key)?.ink;
    if (!ink) continue;
    const x = p.x + ink.x;
    const y = p.y + ink.y;
    const h = Math.min(p.h, ink.y + ink.h) - ink.y;
    if (h <= 0 || x >= rx1 || x + ink.w <= rect.x || y >= ry1 || y + h <= rect.y) continue;
    key += `;${p.cell.key}@${p.x},${p.y},${p.h}`;
  }
  return key;
}

/** Whether `a` lies within `b`. */
const inside = (a: Box, b: Box) =>
  a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;

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

/** Cells that differ from image to image of one layout: digits and the rings or bars. */
const VARIES = new Set(["digit", "ring", "bar", "ended"]);

/**
 * Frame 0, whole. The rows above the first inked row and below the last are the
 * panel's, the same for every image of the atlas: they are kept as LZW pieces
 * and the stream restarts (a clear code) at the band's edges, so only the band
 * is encoded per image. Inside the band, the rows above and below the digits (a label
 * row under them) hold only cells every image of the layout shares: kept as pieces too,
 * under the cells they show.
 */
function firstFrame(atlas: Atlas, placed: readonly PlacedCell[], cache: FrameCache): Uint8Array {
  const { base, cells, id } = atlas;
  const w = base.w;
  let top = base.h;
  let bottom = 0;
  let varyTop = base.h;
  let varyBottom = 0;
  for (const p of placed) {
    const s = inkSpan(p, cells);
    if (!s) continue;
    const y0 = Math.max(0, s.y);
    const y1 = Math.min(base.h, s.y + s.h);
    top = Math.min(top, y0);
    bottom = Math.max(bottom, y1);
    if (VARIES.has(p.cell.kind)) {
      varyTop = Math.min(varyTop, y0);
      varyBottom = Math.max(varyBottom, y1);
    }
  }
  if (top >= bottom) return cached(cache, `${id}|P`, () => lzwEncode(base.pixels, baseBits(atlas)));
  if (varyTop >= varyBottom) {
    varyTop = top;
    varyBottom = bottom;
  }
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
  const shared = (from: number, to: number): LzwPiece | null => {
    if (from >= to) return null;
    const rows = { x: 0, y: from, w, h: to - from };
    return cached(cache, `${id}|S${from},${to}|${bits}${cellsIn(placed, cells, rows)}`, () =>
      lzwRunPiece(canvas.pixels, from * w, to * w, bits),
    );
  };
  const above = shared(top, varyTop);
  const below = shared(varyBottom, bottom);
  lzwBegin(bits);
  if (head) lzwAppend(head);
  if (above) {
    lzwClear();
    lzwAppend(above);
  }
  lzwSegment(canvas.pixels, varyTop * w, varyBottom * w);
  if (below) {
    lzwClear();
    lzwAppend(below);
  }
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
 * An animation's frames, each placed when asked and asked once, in order: frame k's cells
 * are `at(k)`. A GIF's cells are then never all alive at once. When they were (60 frames'
 * worth made first, then encoded), a young-generation GC in the middle of encoding found
 * most of them alive, and V8 then allocated every later image's cells in the old
 * generation (allocation-site pretenuring): about 1.6x the CPU per GIF, in some processes
 * and not others (bench/README.md, issue 37).
 */
export interface PlacedFrames {
  count: number;
  at(k: number): readonly PlacedCell[];
}

/** Every frame of the animation: frame 0 whole, then per frame only what changed. */
export function animationFrames(atlas: Atlas, placed: PlacedFrames, cache: FrameCache): GifFrame[] {
  const { base } = atlas;
  const first = placed.at(0);
  const frames: GifFrame[] = [
    {
      box: { x: 0, y: 0, w: base.w, h: base.h },
      data: firstFrame(atlas, first, cache),
      delay: FRAME_DELAY,
      dispose: 1,
    },
  ];
  if (atlas.palette.transparentIndex >= 0) transparentFrames(atlas, first, placed, cache, frames);
  else opaqueFrames(atlas, first, placed, cache, frames);
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
  first: readonly PlacedCell[],
  placed: PlacedFrames,
  cache: FrameCache,
  frames: GifFrame[],
): void {
  const { cells, id, base } = atlas;
  let after = first;
  // Where the scratch canvas holds the frame before (the rectangle the last frame encoded
  // here drew): a frame not cached inside it need not draw the frame before again. Without
  // a frame cache every frame is encoded, and most rectangles repeat (a seconds digit).
  let drawn: Box | null = null;
  for (let k = 1; k < placed.count; k++) {
    const before = after;
    after = placed.at(k);
    const rect = changedRect(before, after, cells, base);
    if (!rect) {
      frames.push(steadyFrame(atlas, after, NO_CHANGE, cache));
      continue;
    }
    const key = `${id}|D${boxKey(rect)}${cellsIn(after, cells, rect)}|${cellsIn(before, cells, rect)}`;
    const held = drawn;
    drawn = null;
    const delta = cached(cache, key, () => {
      const canvas = scratchCanvas(base);
      if (!held || !inside(rect, held)) redraw(canvas, before, cells, rect);
      const under = extract(canvas, rect);
      redraw(canvas, after, cells, rect);
      drawn = rect;
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
  first: readonly PlacedCell[],
  placed: PlacedFrames,
  cache: FrameCache,
  frames: GifFrame[],
): void {
  const { cells, id, base } = atlas;
  const n = placed.count;
  // Frame k needs the change into frame k + 1: a window of frames k and k + 1.
  let current = first;
  let next = n > 1 ? placed.at(1) : first;
  let change = n > 1 ? changedRect(current, next, cells, base) : null;
  let area: Box | null = null;
  for (let k = 1; k < n; k++) {
    current = next;
    const changeIn = change;
    if (k + 1 < n) {
      next = placed.at(k + 1);
      change = changedRect(current, next, cells, base);
    } else change = null;
    const before = area;
    area = union(union(area, changeIn), change);
    if (!area) {
      // Nothing has changed yet: the second still gets its frame, a one-pixel repaint.
      frames.push(steadyFrame(atlas, current, NO_CHANGE, cache));
      continue;
    }
    const rect = area;
    const onFrame0 = before === null;
    // The first cleared-area frame lies on frame 0's pixels, which nothing cleared:
    // its picture depends on frame 0's cells there too.
    const key = `${id}|A${boxKey(rect)}${cellsIn(current, cells, rect)}${
      onFrame0 ? `|0${cellsIn(first, cells, rect)}` : ""
    }`;
    const data = cached(cache, key, () => {
      const canvas = scratchCanvas(base);
      let under: Uint8Array | null = null;
      if (onFrame0) {
        redraw(canvas, first, cells, rect);
        under = extract(canvas, rect);
      }
      redraw(canvas, current, cells, rect);
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
