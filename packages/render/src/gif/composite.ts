// Frames are assembled in palette-index space: the panel is one Uint8Array, each
// glyph cell another, and drawing a frame is copying rows of bytes. Only the
// rectangle that changed since the previous frame is redrawn and encoded.
import type { Box, PlacedCell } from "./scene";

/** A rectangle of palette indices, row by row. */
export interface IndexedImage {
  w: number;
  h: number;
  pixels: Uint8Array;
}

/** A glyph cell: its pixels and the box, relative to the cell, where they differ from the panel. */
export interface CellRaster extends IndexedImage {
  /** Bounding box of the ink; outside it the cell equals the panel beneath. Null: no ink. */
  ink: Box | null;
}

/** The frame being assembled, and the panel it starts from. */
export interface Canvas extends IndexedImage {
  base: IndexedImage;
}

/** A canvas showing only the panel. */
export function createCanvas(base: IndexedImage): Canvas {
  return { w: base.w, h: base.h, pixels: base.pixels.slice(), base };
}

let scratch = new Uint8Array(0);

/**
 * A canvas over one buffer shared by every image of this thread, holding
 * whatever the last image left there: callers redraw each rectangle before they
 * read it, and finish before they await anything (rendering is synchronous
 * between awaits, so images never interleave on it).
 */
export function scratchCanvas(base: IndexedImage): Canvas {
  const n = base.w * base.h;
  if (scratch.length < n) scratch = new Uint8Array(n);
  return { w: base.w, h: base.h, pixels: scratch.subarray(0, n), base };
}

/** Lets go of the shared buffer (it grows to the largest image drawn). */
export function releaseScratch(): void {
  scratch = new Uint8Array(0);
}

/** Cell rasters by atlas key. */
export type CellRasters = ReadonlyMap<string, CellRaster>;

/** The box of `pixels` that differs from `paper` (the panel's fill index), or null. */
export function inkBox(image: IndexedImage, paper: number): Box | null {
  let x0 = image.w;
  let x1 = -1;
  let y0 = image.h;
  let y1 = -1;
  for (let y = 0; y < image.h; y++) {
    for (let x = 0; x < image.w; x++) {
      if (image.pixels[y * image.w + x] === paper) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/** Draws a whole frame: the panel, then every cell. */
export function drawFrame(canvas: Canvas, placed: readonly PlacedCell[], cells: CellRasters): void {
  redraw(canvas, placed, cells, { x: 0, y: 0, w: canvas.w, h: canvas.h });
}

/**
 * Redraws `rect` alone: restores the panel there, then blits the ink of every
 * cell that overlaps it, clipped. Cells carry their own background, equal to the
 * panel's fill beneath them, so only their ink boxes need copying.
 */
export function redraw(
  canvas: Canvas,
  placed: readonly PlacedCell[],
  cells: CellRasters,
  rect: Box,
): void {
  const { w: cw, pixels } = canvas;
  const base = canvas.base.pixels;
  if (rect.x === 0 && rect.w === cw) {
    pixels.set(base.subarray(rect.y * cw, (rect.y + rect.h) * cw), rect.y * cw);
  } else {
    for (let y = rect.y; y < rect.y + rect.h; y++)
      copyRow(base, y * cw + rect.x, pixels, y * cw + rect.x, rect.w);
  }
  for (const p of placed) {
    const raster = cells.get(p.cell.key);
    if (!raster) throw new Error(`atlas has no cell ${p.cell.key}`);
    // Outside its ink a cell equals the panel just restored: copy the ink alone.
    const { ink } = raster;
    if (!ink) continue;
    const x0 = Math.max(p.x + ink.x, rect.x);
    const y0 = Math.max(p.y + ink.y, rect.y);
    const x1 = Math.min(p.x + ink.x + ink.w, rect.x + rect.w);
    const y1 = Math.min(p.y + Math.min(p.h, ink.y + ink.h), rect.y + rect.h);
    if (x0 >= x1 || y0 >= y1) continue;
    const src = raster.pixels;
    for (let y = y0; y < y1; y++)
      copyRow(src, (y - p.y) * raster.w + (x0 - p.x), pixels, y * cw + x0, x1 - x0);
  }
}

// Rows of a glyph cell are a few dozen bytes: a plain loop beats creating a
// subarray view per row for TypedArray.set. From 64 bytes (a ring's or a box's rows) the
// view pays: circles' first frame took a fifth less CPU than with the loop up to 256.
function copyRow(src: Uint8Array, from: number, dst: Uint8Array, to: number, n: number): void {
  if (n > 64) {
    dst.set(src.subarray(from, from + n), to);
    return;
  }
  for (let i = 0; i < n; i++) dst[to + i] = src[from + i]!;
}

// Where two shape cells of one size differ (a ring or bar one step apart): per pair, once.
const diffBoxes = new WeakMap<CellRaster, Map<CellRaster, Box | null>>();

/** The box where two equally sized rasters differ, relative to them; null when identical. */
function diffBox(a: CellRaster, b: CellRaster): Box | null {
  let byB = diffBoxes.get(a);
  if (!byB) {
    byB = new Map();
    diffBoxes.set(a, byB);
  }
  if (byB.has(b)) return byB.get(b)!;
  let x0 = a.w;
  let x1 = -1;
  let y0 = a.h;
  let y1 = -1;
  for (let y = 0; y < a.h; y++)
    for (let x = 0; x < a.w; x++) {
      const i = y * a.w + x;
      if (a.pixels[i] === b.pixels[i]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  const box = x1 < 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  byB.set(b, box);
  return box;
}

const isStep = (p: PlacedCell) => p.cell.kind === "ring" || p.cell.kind === "bar";

function samePlacement(a: PlacedCell, b: PlacedCell): boolean {
  return a.cell.key === b.cell.key && a.x === b.x && a.y === b.y && a.h === b.h;
}

/**
 * The bounding box of every pixel that differs between two frames: the ink of
 * cells that left and of cells that arrived (outside its ink a cell equals the
 * panel), clipped to the canvas; null when the frames are identical. A changed
 * digit cell is mostly background above and below the glyph, and every pixel
 * left out is one LZW does not encode. Consecutive frames of one image list
 * their cells in the same order, so comparing position by position finds them.
 */
export function changedRect(
  before: readonly PlacedCell[],
  after: readonly PlacedCell[],
  cells: CellRasters,
  canvas: { w: number; h: number },
): Box | null {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  const grow = (p: PlacedCell) => {
    const ink = cells.get(p.cell.key)?.ink;
    if (!ink) return;
    // A cropped cell (the ended text) shows only its first p.h rows.
    const top = p.y + ink.y;
    const bottom = Math.min(p.y + ink.y + ink.h, p.y + p.h);
    if (bottom <= top) return;
    x0 = Math.min(x0, p.x + ink.x);
    y0 = Math.min(y0, top);
    x1 = Math.max(x1, p.x + ink.x + ink.w);
    y1 = Math.max(y1, bottom);
  };
  const n = Math.max(before.length, after.length);
  for (let i = 0; i < n; i++) {
    const a = before[i];
    const b = after[i];
    if (a && b && samePlacement(a, b)) continue;
    // A ring or bar one step on, in place: only the sliver that moved is new.
    if (
      a &&
      b &&
      isStep(a) &&
      isStep(b) &&
      a.x === b.x &&
      a.y === b.y &&
      a.w === b.w &&
      a.h === b.h
    ) {
      const ra = cells.get(a.cell.key);
      const rb = cells.get(b.cell.key);
      if (ra && rb && ra.w === rb.w && ra.h === rb.h) {
        const d = diffBox(ra, rb);
        if (d) {
          x0 = Math.min(x0, a.x + d.x);
          y0 = Math.min(y0, a.y + d.y);
          x1 = Math.max(x1, a.x + d.x + d.w);
          y1 = Math.max(y1, a.y + d.y + d.h);
        }
        continue;
      }
    }
    if (a) grow(a);
    if (b) grow(b);
  }
  return clip({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, canvas);
}

/** The smallest box holding both (either may be null). */
export function union(a: Box | null, b: Box | null): Box | null {
  if (!a) return b;
  if (!b) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    w: Math.max(a.x + a.w, b.x + b.w) - x,
    h: Math.max(a.y + a.h, b.y + b.h) - y,
  };
}

function clip(box: Box, canvas: { w: number; h: number }): Box | null {
  if (!Number.isFinite(box.x)) return null;
  const x = Math.max(0, box.x);
  const y = Math.max(0, box.y);
  const w = Math.min(canvas.w, box.x + box.w) - x;
  const h = Math.min(canvas.h, box.y + box.h) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : null;
}

/** Copies `rect` of the canvas into a new contiguous array, ready for LZW. */
export function extract(canvas: IndexedImage, rect: Box): Uint8Array {
  if (rect.x === 0 && rect.w === canvas.w)
    return canvas.pixels.slice(rect.y * canvas.w, (rect.y + rect.h) * canvas.w);
  const out = new Uint8Array(rect.w * rect.h);
  for (let y = 0; y < rect.h; y++)
    copyRow(canvas.pixels, (rect.y + y) * canvas.w + rect.x, out, y * rect.w, rect.w);
  return out;
}
