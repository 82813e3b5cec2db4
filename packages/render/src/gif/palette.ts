// One global palette per look: every frame of every image of the look indexes
// into it, so frames need no local colour tables and compositing is byte copies.
import { createRequire } from "node:module";

/** A GIF/PNG palette of at most 256 colours. */
export interface Palette {
  /** RGB triples, `size` of them. */
  rgb: Uint8Array;
  size: number;
  /** The index GIF and PNG show as transparent, or -1 when the look is opaque. */
  transparentIndex: number;
  /** Bits per index (1..8): GIF's colour table size and LZW minimum code size follow it. */
  bits: number;
}

/** Marks a flattened pixel that stays transparent. */
export const TRANSPARENT = -1;

/** A palette and the index of every colour it was built from. */
export interface PaletteMapping {
  palette: Palette;
  /** Index of a flattened pixel (0xRRGGBB, or TRANSPARENT). */
  indexOf(pixel: number): number;
  /** How many colours indexOf knows (what its table costs in memory). */
  mapped: number;
}

// gifenc ships CommonJS whose named exports Node's ESM loader cannot see, and an
// ESM build whose default export differs; require() gives the same object everywhere.
// Loaded on first use, like satori: only looks with more colours than a palette holds need it.
let gifenc:
  | { quantize(rgba: Uint8Array, maxColors: number, options?: { format?: string }): number[][] }
  | undefined;

/**
 * Builds the palette of `pixels` (0xRRGGBB, or TRANSPARENT). When the distinct
 * colours fit, they are kept exactly, so composited frames equal the vector
 * rendering; otherwise pnnquant (gifenc's quantizer) picks `maxColors` and
 * `keyColors` (background, text, accent, matte) are snapped in exactly.
 */
export function buildPalette(
  pixels: Int32Array,
  keyColors: readonly number[],
  maxColors = 256,
): PaletteMapping {
  const counts = new Map<number, number>();
  let hasTransparent = false;
  // Counted per run of one colour: a sheet is mostly long runs of the panel's fill.
  for (let i = 0; i < pixels.length; ) {
    const p = pixels[i]!;
    let j = i + 1;
    while (j < pixels.length && pixels[j] === p) j++;
    if (p === TRANSPARENT) hasTransparent = true;
    else counts.set(p, (counts.get(p) ?? 0) + (j - i));
    i = j;
  }
  for (const key of keyColors) if (!counts.has(key)) counts.set(key, 0);
  const room = Math.min(256, maxColors) - (hasTransparent ? 1 : 0);

  let colors: number[];
  if (counts.size <= room) {
    // Most used first: the first frame's LZW dictionary fills with them sooner.
    colors = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([c]) => c);
  } else {
    colors = quantize(pixels, room);
    for (const key of keyColors) {
      if (colors.includes(key)) continue;
      colors[nearest(colors, key, keyColors)] = key;
    }
    // Most used first here too: frames index only the colours they show, and a frame of
    // digits then needs fewer bits per code than the table's (animate.ts).
    const used = new Map<number, number>(colors.map((c) => [c, 0]));
    for (const [c, n] of counts) {
      const slot = colors[nearest(colors, c)]!;
      used.set(slot, used.get(slot)! + n);
    }
    colors = [...used.entries()].sort((a, b) => b[1] - a[1]).map(([c]) => c);
  }
  // Index 0 is transparent when there is one: the logical screen's background index.
  const offset = hasTransparent ? 1 : 0;
  const size = colors.length + offset;
  const bits = Math.max(1, Math.ceil(Math.log2(Math.max(2, size))));
  const rgb = new Uint8Array(size * 3);
  colors.forEach((c, i) => {
    rgb[(i + offset) * 3] = (c >> 16) & 255;
    rgb[(i + offset) * 3 + 1] = (c >> 8) & 255;
    rgb[(i + offset) * 3 + 2] = c & 255;
  });
  const index = new Map<number, number>();
  colors.forEach((c, i) => {
    index.set(c, i + offset);
  });
  for (const c of counts.keys()) if (!index.has(c)) index.set(c, nearest(colors, c) + offset);
  return {
    palette: { rgb, size, transparentIndex: hasTransparent ? 0 : -1, bits },
    indexOf: (pixel) => (pixel === TRANSPARENT ? 0 : index.get(pixel)!),
    mapped: index.size,
  };
}

function quantize(pixels: Int32Array, maxColors: number): number[] {
  const rgba = new Uint8Array(pixels.length * 4);
  let n = 0;
  for (let i = 0; i < pixels.length; i++) {
    const p = pixels[i]!;
    if (p === TRANSPARENT) continue;
    rgba[n++] = (p >> 16) & 255;
    rgba[n++] = (p >> 8) & 255;
    rgba[n++] = p & 255;
    rgba[n++] = 255;
  }
  gifenc ??= createRequire(import.meta.url)("gifenc") as NonNullable<typeof gifenc>;
  const palette = gifenc.quantize(rgba.subarray(0, n), maxColors);
  return [...new Set(palette.map(([r, g, b]) => ((r! << 16) | (g! << 8) | b!) >>> 0))];
}

/** Index of the palette colour closest to `color` (squared RGB distance), skipping `avoid`. */
function nearest(colors: readonly number[], color: number, avoid: readonly number[] = []): number {
  const r = (color >> 16) & 255;
  const g = (color >> 8) & 255;
  const b = color & 255;
  let best = 0;
  let bestD = Number.POSITIVE_INFINITY;
  for (let i = 0; i < colors.length; i++) {
    const c = colors[i]!;
    if (avoid.includes(c)) continue;
    const dr = ((c >> 16) & 255) - r;
    const dg = ((c >> 8) & 255) - g;
    const db = (c & 255) - b;
    const d = dr * dr + dg * dg + db * db;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}
