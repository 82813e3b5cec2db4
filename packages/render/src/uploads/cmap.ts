// Which glyph a font draws each character with: its character map (cmap), read from the
// subtable that covers the most of Unicode. Formats 0, 4, 6, 12 and 13 are read; they are the
// ones Unicode subtables use (format 14 only adds variation selectors).
import { malformed } from "./file-problem";
import type { Sfnt } from "./sfnt";

/** A character map: the glyph of a code point, 0 when the font has none. */
export type GlyphOf = (codePoint: number) => number;

// Preferred subtables, best first: full Unicode (3,10 and 0,4/0,6), then the BMP (3,1, 0,3 and
// older 0,x), then Mac Roman, which covers ASCII (digits) at least.
const PREFERENCE: ReadonlyArray<readonly [number, number]> = [
  [3, 10],
  [0, 6],
  [0, 4],
  [3, 1],
  [0, 3],
  [0, 2],
  [0, 1],
  [0, 0],
  [1, 0],
];

/** The font's character map; a `malformed` FileProblem when it has no usable one. */
export function readCmap(font: Sfnt): GlyphOf {
  const { view } = font;
  const table = font.table("cmap")!;
  const end = table.offset + table.length;
  if (table.length < 4) throw malformed("the font's cmap table is cut short");
  const count = view.getUint16(table.offset + 2);
  if (4 + count * 8 > table.length) throw malformed("the font's cmap table is cut short");
  const found = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const at = table.offset + 4 + i * 8;
    const offset = table.offset + view.getUint32(at + 4);
    if (offset + 4 > end) throw malformed("a subtable of the font's cmap lies outside it");
    found.set(`${view.getUint16(at)},${view.getUint16(at + 2)}`, offset);
  }
  for (const [platform, encoding] of PREFERENCE) {
    const offset = found.get(`${platform},${encoding}`);
    if (offset === undefined) continue;
    const reader = subtable(view, offset, end);
    if (reader) return reader;
  }
  throw malformed("the font has no Unicode character map (cmap)");
}

/** A reader of the subtable at `at`, or null for a format that does not map Unicode. */
function subtable(view: DataView, at: number, end: number): GlyphOf | null {
  const format = view.getUint16(at);
  const need = (bytes: number) => {
    if (at + bytes > end) throw malformed(`the font's cmap format ${format} is cut short`);
  };
  switch (format) {
    case 0: {
      need(6 + 256);
      return (cp) => (cp < 256 ? view.getUint8(at + 6 + cp) : 0);
    }
    case 4: {
      need(14);
      const segments = view.getUint16(at + 6) / 2;
      const ends = at + 14;
      const starts = ends + segments * 2 + 2;
      const deltas = starts + segments * 2;
      const ranges = deltas + segments * 2;
      need(14 + segments * 8 + 2);
      return (cp) => {
        if (cp > 0xffff || segments === 0) return 0;
        // Segments are sorted by end code: the first that ends at or after cp.
        let lo = 0;
        let hi = segments - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (view.getUint16(ends + mid * 2) < cp) lo = mid + 1;
          else hi = mid;
        }
        const start = view.getUint16(starts + lo * 2);
        if (cp < start || cp > view.getUint16(ends + lo * 2)) return 0;
        const delta = view.getUint16(deltas + lo * 2);
        const rangeAt = ranges + lo * 2;
        const range = view.getUint16(rangeAt);
        if (range === 0) return (cp + delta) & 0xffff;
        const glyphAt = rangeAt + range + (cp - start) * 2;
        if (glyphAt + 2 > end) return 0;
        const glyph = view.getUint16(glyphAt);
        return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
      };
    }
    case 6: {
      need(10);
      const first = view.getUint16(at + 6);
      const count = view.getUint16(at + 8);
      need(10 + count * 2);
      return (cp) =>
        cp >= first && cp < first + count ? view.getUint16(at + 10 + (cp - first) * 2) : 0;
    }
    case 12:
    case 13: {
      need(16);
      const groups = view.getUint32(at + 12);
      need(16 + groups * 12);
      return (cp) => {
        let lo = 0;
        let hi = groups - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          const g = at + 16 + mid * 12;
          if (cp < view.getUint32(g)) hi = mid - 1;
          else if (cp > view.getUint32(g + 4)) lo = mid + 1;
          else {
            const startGlyph = view.getUint32(g + 8);
            return format === 13 ? startGlyph : startGlyph + (cp - view.getUint32(g));
          }
        }
        return 0;
      };
    }
    default:
      return null;
  }
}
