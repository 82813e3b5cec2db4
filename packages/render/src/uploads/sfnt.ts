// The table directory of a TrueType or OpenType file (an "sfnt"), read with every offset
// checked against the file: an uploaded file is untrusted input, and a table that points
// past the end is a damaged file, never a read out of bounds.
import { malformed } from "./file-problem";

/** One table of an sfnt: where its bytes are. */
export interface SfntTable {
  offset: number;
  length: number;
}

/** An sfnt's outline flavour and tables, over the file's bytes. */
export interface Sfnt {
  /** `ttf`: TrueType outlines (glyf); `otf`: PostScript outlines (CFF or CFF2). */
  flavor: "ttf" | "otf";
  bytes: Uint8Array;
  view: DataView;
  /** The table tagged `tag` ("cmap"), or undefined. */
  table(tag: string): SfntTable | undefined;
}

const TRUETYPE = 0x00010000;
const OTTO = 0x4f54544f; // "OTTO": CFF outlines
const APPLE_TRUE = 0x74727565; // "true": old Apple TrueType

/** Whether `bytes` start like an sfnt (TrueType or OpenType). */
export function looksLikeSfnt(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 4) return false;
  const tag = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  return tag === TRUETYPE || tag === OTTO || tag === APPLE_TRUE;
}

/** Reads an sfnt's table directory; throws a `malformed` FileProblem on any bad offset. */
export function readSfnt(bytes: Uint8Array): Sfnt {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 12) throw malformed("the font file is cut short");
  const version = view.getUint32(0);
  const numTables = view.getUint16(4);
  if (numTables === 0 || numTables > 512) throw malformed("the font's table count is not sane");
  if (bytes.byteLength < 12 + numTables * 16) throw malformed("the font's table list is cut short");
  const tables = new Map<string, SfntTable>();
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length > bytes.byteLength)
      throw malformed(`the font's ${tag.trim()} table runs past the end of the file (cut short?)`);
    tables.set(tag, { offset, length });
  }
  for (const tag of ["cmap", "head", "hhea", "hmtx", "maxp"])
    if (!tables.has(tag)) throw malformed(`the font has no ${tag} table`);
  const cff = tables.has("CFF ") || tables.has("CFF2");
  const glyf = tables.has("glyf") && tables.has("loca");
  if (!cff && !glyf) throw malformed("the font has no glyph outlines (no glyf or CFF table)");
  const head = tables.get("head")!;
  if (head.length < 54 || view.getUint32(head.offset + 12) !== 0x5f0f3cf5)
    throw malformed("the font's head table is damaged");
  return {
    flavor: version === OTTO || (cff && !glyf) ? "otf" : "ttf",
    bytes,
    view,
    table: (tag) => tables.get(tag),
  };
}

/** The number of glyphs the font declares (maxp). */
export function glyphCount(font: Sfnt): number {
  const maxp = font.table("maxp")!;
  if (maxp.length < 6) throw malformed("the font's maxp table is cut short");
  return font.view.getUint16(maxp.offset + 4);
}

/**
 * Whether TrueType glyph `glyph` has an outline (loca gives it a length); PostScript fonts are
 * not looked into (true). A digit mapped to an empty glyph would draw nothing.
 */
export function hasOutline(font: Sfnt, glyph: number): boolean {
  const loca = font.table("loca");
  if (font.flavor !== "ttf" || !loca) return true;
  const long = font.view.getInt16(font.table("head")!.offset + 50) === 1;
  const size = long ? 4 : 2;
  const at = loca.offset + glyph * size;
  if (at + 2 * size > loca.offset + loca.length) return false;
  const start = long ? font.view.getUint32(at) : font.view.getUint16(at) * 2;
  const end = long ? font.view.getUint32(at + size) : font.view.getUint16(at + size) * 2;
  return end > start;
}

/** Glyph `glyph`'s advance width in em (hmtx over head's units per em); 0 when unreadable. */
export function advance(font: Sfnt, glyph: number): number {
  const { view } = font;
  const units = view.getUint16(font.table("head")!.offset + 18);
  const hhea = font.table("hhea")!;
  const hmtx = font.table("hmtx")!;
  if (units === 0 || hhea.length < 36) return 0;
  const metrics = view.getUint16(hhea.offset + 34);
  // Glyphs past the last long metric share its advance.
  const at = hmtx.offset + Math.min(glyph, metrics - 1) * 4;
  if (metrics === 0 || at + 2 > hmtx.offset + hmtx.length) return 0;
  return view.getUint16(at) / units;
}
