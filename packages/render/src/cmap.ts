// Which code points a font really has a glyph for, read from its `cmap` table. A font
// package's unicode-range says which characters a subset file is meant for; the file itself
// can lack some of them (Inter's Latin subset claims all of U+2000-206F). satori picks a face
// by its cmap, so the characters a look can draw are decided the same way here.
import { inflateSync } from "node:zlib";

/** Sorted, disjoint, inclusive code point ranges. */
export type CodePointRanges = ReadonlyArray<readonly [number, number]>;

const CMAP = 0x636d6170; // "cmap"

/** The cmap table of a WOFF 1.0 file, inflated; only that table is unpacked. */
function woffCmapTable(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error("not a WOFF file");
  const numTables = woff.readUInt16BE(12);
  for (let i = 0; i < numTables; i++) {
    const at = 44 + i * 20;
    if (woff.readUInt32BE(at) !== CMAP) continue;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compLength);
    return compLength < origLength ? inflateSync(raw) : raw;
  }
  throw new Error("the font has no cmap table");
}

/**
 * The code points a WOFF font maps to a glyph (glyph 0, .notdef, is no glyph), from its
 * best Unicode subtable: format 12 (full repertoire) when there is one, else format 4.
 */
export function woffCodePoints(woff: Buffer): CodePointRanges {
  const cmap = woffCmapTable(woff);
  const count = cmap.readUInt16BE(2);
  let best: { rank: number; offset: number } | null = null;
  for (let i = 0; i < count; i++) {
    const platform = cmap.readUInt16BE(4 + i * 8);
    const encoding = cmap.readUInt16BE(6 + i * 8);
    const offset = cmap.readUInt32BE(8 + i * 8);
    const format = cmap.readUInt16BE(offset);
    // Unicode subtables only: Windows Unicode (3,1 / 3,10) or the Unicode platform (0,*).
    if (!(platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10)))) continue;
    const rank = format === 12 ? 2 : format === 4 ? 1 : 0;
    if (rank > 0 && (best === null || rank > best.rank)) best = { rank, offset };
  }
  if (best === null) throw new Error("the font has no Unicode cmap subtable");
  const out: Array<[number, number]> =
    best.rank === 2 ? format12(cmap, best.offset) : format4(cmap, best.offset);
  return merge(out);
}

function format12(cmap: Buffer, at: number): Array<[number, number]> {
  const groups = cmap.readUInt32BE(at + 12);
  const out: Array<[number, number]> = [];
  for (let g = 0; g < groups; g++) {
    const start = cmap.readUInt32BE(at + 16 + g * 12);
    const end = cmap.readUInt32BE(at + 20 + g * 12);
    const glyph = cmap.readUInt32BE(at + 24 + g * 12);
    // A group starting at glyph 0 maps its first code point to .notdef.
    const from = glyph === 0 ? start + 1 : start;
    if (from <= end) out.push([from, end]);
  }
  return out;
}

function format4(cmap: Buffer, at: number): Array<[number, number]> {
  const segCount = cmap.readUInt16BE(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segCount * 2 + 2;
  const deltas = starts + segCount * 2;
  const rangeOffsets = deltas + segCount * 2;
  const out: Array<[number, number]> = [];
  for (let s = 0; s < segCount; s++) {
    const end = cmap.readUInt16BE(ends + s * 2);
    const start = cmap.readUInt16BE(starts + s * 2);
    const delta = cmap.readInt16BE(deltas + s * 2);
    const rangeOffset = cmap.readUInt16BE(rangeOffsets + s * 2);
    for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
      let glyph: number;
      if (rangeOffset === 0) glyph = (cp + delta) & 0xffff;
      else {
        // The spec's pointer arithmetic: from the idRangeOffset entry itself.
        const where = rangeOffsets + s * 2 + rangeOffset + (cp - start) * 2;
        if (where + 2 > cmap.length) continue;
        const raw = cmap.readUInt16BE(where);
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph !== 0) out.push([cp, cp]);
    }
  }
  return out;
}

function merge(ranges: Array<[number, number]>): CodePointRanges {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [from, to] of ranges) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** Whether `cp` is in `ranges` (binary search). */
export function inRanges(ranges: CodePointRanges, cp: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [from, to] = ranges[mid]!;
    if (cp < from) hi = mid - 1;
    else if (cp > to) lo = mid + 1;
    else return true;
  }
  return false;
}
