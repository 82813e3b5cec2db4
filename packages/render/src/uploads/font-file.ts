// An uploaded font checked by reading it: its container (TTF, OTF or WOFF; WOFF2 and font
// collections are named and refused), its tables, its character map and its name, and that it
// draws the digits 0-9. What it can draw is then asked of the file itself, never of its name.

import { readCmap } from "./cmap";
import { FileProblem } from "./file-problem";
import { advance, glyphCount, hasOutline, looksLikeSfnt, readSfnt, type Sfnt } from "./sfnt";
import { unpackWoff, woffKind } from "./woff";

/** The formats fonts are uploaded in. */
export type FontFormat = "ttf" | "otf" | "woff";

/** An uploaded font that reads, and what it can draw. */
export interface FontFile {
  /** The container it came in. */
  format: FontFormat;
  /** The TrueType/OpenType file (a WOFF unpacked): what renderers and subsetters take. */
  sfnt: Uint8Array;
  /** The family name the font gives itself ("" when it names none). */
  family: string;
  glyphs: number;
  /** The characters of `text` the font has no glyph for, each once, in order of first use. */
  missing(text: string): string[];
  /** The widest advance among the characters of `text` it draws, in em (0 when none). */
  widestEm(text: string): number;
}

/** The digits every countdown draws: a font must have all of them. */
export const DIGITS = "0123456789";

/**
 * Reads an uploaded font (TTF, OTF or WOFF). Throws a {@link FileProblem}: `unsupported_format`
 * for anything else (naming WOFF2, collections, images), `malformed` for a damaged or cut-short
 * file, `missing_glyphs` when it cannot draw all of 0-9 (naming the missing digits).
 * @example
 * const font = inspectFont(bytes); // throws FileProblem
 * font.missing("Tage"); // ["g"]: this font cannot draw German labels
 */
export function inspectFont(bytes: Uint8Array): FontFile {
  const container = woffKind(bytes);
  if (container === "woff2")
    throw new FileProblem(
      "unsupported_format",
      "WOFF2 fonts are not taken: upload the font as TTF, OTF or WOFF",
    );
  if (!container && !looksLikeSfnt(bytes))
    throw new FileProblem("unsupported_format", notAFont(bytes));
  const sfnt = container === "woff" ? unpackWoff(bytes) : bytes;
  if (!looksLikeSfnt(sfnt)) throw new FileProblem("unsupported_format", notAFont(sfnt));
  const font = readSfnt(sfnt);
  const glyphs = glyphCount(font);
  const glyphOf = readCmap(font);
  const drawn = (ch: string) => {
    const glyph = glyphOf(ch.codePointAt(0)!);
    return glyph !== 0 && glyph < glyphs && (/\s/.test(ch) || hasOutline(font, glyph));
  };
  const file: FontFile = {
    format: container ?? font.flavor,
    sfnt,
    family: familyName(font),
    glyphs,
    missing(text) {
      const out = new Set<string>();
      for (const ch of text) if (!out.has(ch) && !drawn(ch)) out.add(ch);
      return [...out];
    },
    widestEm(text) {
      let widest = 0;
      for (const ch of text) {
        const glyph = glyphOf(ch.codePointAt(0)!);
        if (glyph !== 0 && glyph < glyphs) widest = Math.max(widest, advance(font, glyph));
      }
      return widest;
    },
  };
  const digits = file.missing(DIGITS);
  if (digits.length > 0)
    throw new FileProblem(
      "missing_glyphs",
      `the font cannot draw the digit${digits.length > 1 ? "s" : ""} ${digits.join(", ")}: a countdown needs 0-9`,
      digits,
    );
  return file;
}

/** Names what the bytes look like instead, so the refusal says what was sent. */
function notAFont(bytes: Uint8Array): string {
  const head = String.fromCharCode(...bytes.subarray(0, 4));
  const what =
    head === "ttcf"
      ? "a font collection (TTC), which is not taken: upload one font of it as TTF or OTF"
      : head === "\x89PNG"
        ? "a PNG image, not a font"
        : bytes[0] === 0xff && bytes[1] === 0xd8
          ? "a JPEG image, not a font"
          : "not a TTF, OTF or WOFF font";
  return `the file is ${what}`;
}

/** The typographic family (name ID 16), else the family (1); Windows names first. */
function familyName(font: Sfnt): string {
  const name = font.table("name");
  if (!name || name.length < 6) return "";
  const { view } = font;
  const count = view.getUint16(name.offset + 2);
  const strings = name.offset + view.getUint16(name.offset + 4);
  const end = name.offset + name.length;
  let best = "";
  let rank = Number.POSITIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const at = name.offset + 6 + i * 12;
    if (at + 12 > end) break;
    const platform = view.getUint16(at);
    const language = view.getUint16(at + 4);
    const id = view.getUint16(at + 6);
    const length = view.getUint16(at + 8);
    const start = strings + view.getUint16(at + 10);
    if ((id !== 16 && id !== 1) || start + length > end) continue;
    const windows = platform === 3 || platform === 0;
    if (!windows && platform !== 1) continue;
    // Lower is better: typographic family, Windows/Unicode, US English.
    const r = (id === 16 ? 0 : 4) + (windows ? 0 : 2) + (language === 0x409 || !windows ? 0 : 1);
    if (r >= rank) continue;
    const raw = font.bytes.subarray(start, start + length);
    const text = windows
      ? String.fromCharCode(
          ...Array.from({ length: length >> 1 }, (_, k) => view.getUint16(start + k * 2)),
        )
      : String.fromCharCode(...raw);
    best = text;
    rank = r;
  }
  // Shown on pages and in lists: no control characters, a sane length.
  return [...best]
    .filter((ch) => !isControl(ch))
    .join("")
    .trim()
    .slice(0, 100);
}

/** C0 and C1 control characters (U+0000-001F, U+007F-009F). */
function isControl(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}
