// Decoding what the renderer produced with independent code: omggif for GIFs
// (a real decoder, not ours), node:zlib plus a few lines for palette PNGs.
import { inflateSync } from "node:zlib";
import omggif, { type GifFrameInfo } from "omggif";
import { FileProblem } from "../src/uploads/file-problem";

/** RGBA pixels of a whole image. */
export interface Picture {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** A decoded GIF: its structure and every frame as shown on screen. */
export interface DecodedGif {
  width: number;
  height: number;
  /** null: no NETSCAPE2.0 extension (plays once); 0: loops forever. */
  loopCount: number | null;
  info: GifFrameInfo[];
  /** The logical screen after each frame, disposal methods applied as browsers do. */
  frames: Picture[];
}

/** Decodes every frame and composes them onto the logical screen in order. */
export function decodeGif(bytes: Uint8Array): DecodedGif {
  const reader = new omggif.GifReader(bytes);
  const { width, height } = reader;
  const screen = new Uint8Array(width * height * 4);
  const info: GifFrameInfo[] = [];
  const frames: Picture[] = [];
  let previous: GifFrameInfo | null = null;
  for (let i = 0; i < reader.numFrames(); i++) {
    // Disposal 2 of the previous frame: its rectangle goes back to transparent.
    if (previous?.disposal === 2) {
      for (let y = previous.y; y < previous.y + previous.height; y++)
        screen.fill(0, (y * width + previous.x) * 4, (y * width + previous.x + previous.width) * 4);
    }
    const frame = reader.frameInfo(i);
    reader.decodeAndBlitFrameRGBA(i, screen);
    info.push(frame);
    frames.push({ width, height, rgba: screen.slice() });
    previous = frame;
  }
  return { width, height, loopCount: reader.loopCount(), info, frames };
}

/** Decodes a palette PNG (colour type 3, 8 bits, no interlace) as the renderer writes it. */
export function decodePng(bytes: Uint8Array): Picture & { transparentIndex: number | null } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let palette: Uint8Array = new Uint8Array(0);
  let alpha: Uint8Array = new Uint8Array(0);
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      if (data[8] !== 8 || data[9] !== 3) throw new Error("not an 8-bit palette PNG");
    } else if (type === "PLTE") palette = data;
    else if (type === "tRNS") alpha = data;
    else if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    if (raw[y * (width + 1)] !== 0) throw new Error("unexpected PNG row filter");
    for (let x = 0; x < width; x++) {
      const index = raw[y * (width + 1) + 1 + x]!;
      const o = (y * width + x) * 4;
      rgba[o] = palette[index * 3]!;
      rgba[o + 1] = palette[index * 3 + 1]!;
      rgba[o + 2] = palette[index * 3 + 2]!;
      rgba[o + 3] = index < alpha.length ? alpha[index]! : 255;
    }
  }
  const t = alpha.indexOf(0);
  return { width, height, rgba, transparentIndex: t >= 0 ? t : null };
}

/** How two pictures differ: the largest channel difference and the share of pixels that differ at all. */
export function compare(a: Picture, b: Picture): { max: number; differing: number } {
  if (a.width !== b.width || a.height !== b.height)
    throw new Error(`sizes differ: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  let max = 0;
  let differing = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    let d = 0;
    for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a.rgba[i + c]! - b.rgba[i + c]!));
    if (d > 0) differing++;
    max = Math.max(max, d);
  }
  return { max, differing: differing / (a.rgba.length / 4) };
}

/** Whether two pictures are identical, pixel for pixel. */
export function samePixels(a: Picture, b: Picture): boolean {
  return (
    a.width === b.width && a.height === b.height && Buffer.from(a.rgba).equals(Buffer.from(b.rgba))
  );
}

/** Days, hours, minutes and seconds as seconds. */
export function dhms(d: number, h: number, m: number, s: number): number {
  return ((d * 24 + h) * 60 + m) * 60 + s;
}

/** The coarse shape of the ink in a picture: its bounding box, and column and row profiles. */
export interface InkSignature {
  width: number;
  height: number;
  /** Share of the bounding box that is ink (0..1, ink weighted by darkness). */
  coverage: number;
  /** Ink per column, resampled to `bins` columns across the bounding box, summing to 1. */
  columns: number[];
  /** Ink per row, resampled to a quarter as many rows (text is far wider than tall). */
  rows: number[];
}

/**
 * The ink signature of `darkness` (0..255 per pixel, row by row). Pixels under
 * `threshold` are paper. Sizes and weights cancel out: two renderings of one text
 * at different sizes give near-identical profiles, mirrored text a mirrored one.
 */
export function inkSignature(
  darkness: ArrayLike<number>,
  width: number,
  height: number,
  bins = 48,
  threshold = 40,
): InkSignature {
  let x0 = width;
  let x1 = -1;
  let y0 = height;
  let y1 = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (darkness[y * width + x]! >= threshold) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  if (x1 < 0) return { width: 0, height: 0, coverage: 0, columns: [], rows: [] };
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const columns = new Array<number>(bins).fill(0);
  const rowBins = Math.max(4, Math.round(bins / 4));
  const rows = new Array<number>(rowBins).fill(0);
  let total = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const ink = darkness[y * width + x]! / 255;
      columns[Math.min(bins - 1, Math.floor(((x - x0) * bins) / w))]! += ink;
      rows[Math.min(rowBins - 1, Math.floor(((y - y0) * rowBins) / h))]! += ink;
      total += ink;
    }
  return {
    width: w,
    height: h,
    coverage: total / (w * h),
    columns: columns.map((v) => v / total),
    rows: rows.map((v) => v / total),
  };
}

/** Pearson correlation of two equally long series. */
export function correlation(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

/**
 * The glyph id a TrueType/OpenType font maps `cp` to through its Unicode cmap
 * (formats 4 and 12); 0 is .notdef, the "tofu" box.
 */
export function glyphId(font: Uint8Array, cp: number): number {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = view.getUint16(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const at = 12 + i * 16;
    if (String.fromCharCode(...font.subarray(at, at + 4)) === "cmap") cmap = view.getUint32(at + 8);
  }
  if (cmap < 0) throw new Error("no cmap table");
  let best = 0;
  for (let i = 0; i < view.getUint16(cmap + 2); i++) {
    const at = cmap + 4 + i * 8;
    const platform = view.getUint16(at);
    const encoding = view.getUint16(at + 2);
    if (!(platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10)))) continue;
    const sub = cmap + view.getUint32(at + 4);
    const format = view.getUint16(sub);
    if (format === 12) {
      for (let g = 0; g < view.getUint32(sub + 12); g++) {
        const start = view.getUint32(sub + 16 + g * 12);
        const end = view.getUint32(sub + 20 + g * 12);
        if (cp >= start && cp <= end) return view.getUint32(sub + 24 + g * 12) + (cp - start);
      }
    } else if (format === 4 && cp <= 0xffff) {
      const segs = view.getUint16(sub + 6) / 2;
      const ends = sub + 14;
      const starts = ends + segs * 2 + 2;
      const deltas = starts + segs * 2;
      const offsets = deltas + segs * 2;
      for (let s = 0; s < segs; s++) {
        if (cp > view.getUint16(ends + s * 2)) continue;
        const start = view.getUint16(starts + s * 2);
        if (cp < start) break;
        const delta = view.getUint16(deltas + s * 2);
        const offset = view.getUint16(offsets + s * 2);
        if (offset === 0) best = best || (cp + delta) & 0xffff;
        else {
          const g = view.getUint16(offsets + s * 2 + offset + (cp - start) * 2);
          best = best || (g === 0 ? 0 : (g + delta) & 0xffff);
        }
        break;
      }
    }
  }
  return best;
}

/** The FileProblem `run` throws (an upload refused); fails when it throws nothing or else. */
export function problemOf(run: () => unknown): FileProblem {
  try {
    run();
  } catch (error) {
    if (error instanceof FileProblem) return error;
    throw error;
  }
  throw new Error("no problem found");
}
