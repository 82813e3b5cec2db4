// The fonts images are drawn with: three open families from @fontsource, read
// from the dependency's WOFF files. System fonts are never consulted, so pictures
// are identical on every machine.
//
// A family ships as subsets (Latin, Latin Extended, Cyrillic, ...), two weights
// each. A look's text usually needs the Latin pair alone, so only the subsets its
// characters fall in are read and handed to satori: satori parses every face it
// is given, and that parse is most of the first image's time. Files are unpacked
// from WOFF here with node:zlib (satori would inflate them in JavaScript).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { inflateSync } from "node:zlib";
import type { Look } from "@tminus/core";

/** A font as satori takes it. */
export interface FontFace {
  name: string;
  data: Buffer;
  weight: 400 | 700;
  style: "normal";
}

/** The faces satori needs to draw some text of one look font. */
export interface FontStack {
  /** The faces; one array object per subset choice, so satori's parsed-font cache hits. */
  fonts: FontFace[];
  /** CSS font-family list: the chosen subsets in the family's order. */
  family: string;
}

/** Which characters a look font can draw. */
export interface FontCoverage {
  /** Whether every character of `text` has a glyph in the family (fallbacks included). */
  covers(text: string): boolean;
}

/** Weight of digits, separators and the ended text. */
export const BOLD = 700;
/** Weight of unit labels. */
export const REGULAR = 400;

// Which @fontsource package draws each look font, and which of its subsets ship.
// Lora has no Greek; Inter's Greek follows it in the family list (fallback below).
const FAMILIES: Readonly<Record<Look["font"], { pkg: string; subsets: readonly string[] }>> = {
  sans: { pkg: "inter", subsets: ["latin", "latin-ext", "cyrillic", "greek", "vietnamese"] },
  mono: {
    pkg: "roboto-mono",
    subsets: ["latin", "latin-ext", "cyrillic", "greek", "vietnamese"],
  },
  serif: { pkg: "lora", subsets: ["latin", "latin-ext", "cyrillic", "vietnamese"] },
};
const FALLBACK = { pkg: "inter", subsets: ["greek"] } as const;

// createRequire finds the files through the dependency's `exports` ("./files/*"),
// from src in tests and from dist when installed, ESM or CJS (tsup shims import.meta.url).
const require = createRequire(import.meta.url);

/** One subset of one family: its code points, and its two faces once read. */
interface Subset {
  pkg: string;
  /** The subset's name in the package: "latin", "latin-ext", ... */
  part: string;
  name: string;
  /** Its code points as a CSS unicode-range, from the package's unicode.json. */
  unicodeRange: string;
  ranges: Array<[number, number]>;
  faces?: FontFace[];
}

const families = new Map<Look["font"], Subset[]>();
const stacks = new Map<string, FontStack>();

/** The subsets of a look font in fallback order; only their code point tables are read. */
function subsetsOf(font: Look["font"]): Subset[] {
  let list = families.get(font);
  if (list) return list;
  list = [];
  const sources = [FAMILIES[font], ...(FAMILIES[font].subsets.includes("greek") ? [] : [FALLBACK])];
  for (const { pkg, subsets } of sources) {
    const unicode = JSON.parse(
      readFileSync(require.resolve(`@fontsource/${pkg}/unicode.json`), "utf8"),
    ) as Record<string, string>;
    for (const subset of subsets)
      list.push({
        pkg,
        part: subset,
        // satori keeps one face per name and weight, so each subset needs its own
        // name and the family list names them all: a character missing in one falls
        // to the next.
        name: `tminus-${pkg}-${subset}`,
        unicodeRange: unicode[subset] ?? "",
        ranges: parseUnicodeRange(unicode[subset] ?? ""),
      });
  }
  families.set(font, list);
  return list;
}

/** A subset of a look font as web pages load it: the files behind `@font-face`. */
export interface WebFontSubset {
  /** The @fontsource package ("inter") and its version, which names the files' contents. */
  pkg: string;
  version: string;
  /** The subset ("latin", "cyrillic", ...). */
  part: string;
  /** Its CSS unicode-range: a browser downloads the subset only for text that needs it. */
  unicodeRange: string;
}

/** The subsets of a look font in fallback order, for `@font-face` rules. */
export function webFontSubsets(font: Look["font"]): readonly WebFontSubset[] {
  return subsetsOf(font).map((s) => ({
    pkg: s.pkg,
    version: packageVersion(s.pkg),
    part: s.part,
    unicodeRange: s.unicodeRange,
  }));
}

/** Every look font's subsets, the fallback included: what a font route may serve. */
export function allWebFontSubsets(): readonly WebFontSubset[] {
  const seen = new Map<string, WebFontSubset>();
  for (const font of Object.keys(FAMILIES) as Array<Look["font"]>)
    for (const s of webFontSubsets(font)) seen.set(`${s.pkg}/${s.part}`, s);
  return [...seen.values()];
}

/** The bytes of one @fontsource file of a subset, e.g. ("inter", "latin", 700, "woff2"). */
export function readFontFile(
  pkg: string,
  part: string,
  weight: 400 | 700,
  format: "woff" | "woff2",
): Buffer {
  return readFileSync(
    require.resolve(`@fontsource/${pkg}/files/${pkg}-${part}-${weight}-normal.${format}`),
  );
}

const versions = new Map<string, string>();
function packageVersion(pkg: string): string {
  let version = versions.get(pkg);
  if (version === undefined) {
    version = (
      JSON.parse(readFileSync(require.resolve(`@fontsource/${pkg}/package.json`), "utf8")) as {
        version: string;
      }
    ).version;
    versions.set(pkg, version);
  }
  return version;
}

function facesOf(subset: Subset): FontFace[] {
  if (!subset.faces) {
    subset.faces = ([REGULAR, BOLD] as const).map((weight) => ({
      name: subset.name,
      data: woffToSfnt(readFontFile(subset.pkg, subset.part, weight, "woff")),
      weight,
      style: "normal" as const,
    }));
  }
  return subset.faces;
}

const inSubset = (subset: Subset, cp: number) =>
  subset.ranges.some(([from, to]) => cp >= from && cp <= to);

/** What a look font can draw. */
export function fontCoverage(font: Look["font"]): FontCoverage {
  const subsets = subsetsOf(font);
  return {
    covers(text) {
      for (const ch of text) {
        const cp = ch.codePointAt(0)!;
        if (!subsets.some((s) => inSubset(s, cp))) return false;
      }
      return true;
    },
  };
}

/**
 * The faces that draw `text` in a look font: for each character the first subset
 * (in the family's order) that has it, which is the face satori would pick from
 * the whole family, so the pixels are the same. Digits are Latin, so Latin always
 * comes first and sets the line metrics, as with the whole family.
 */
export function fontStack(font: Look["font"], text: string): FontStack {
  const subsets = subsetsOf(font);
  const chosen = new Set<Subset>([subsets[0]!]);
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const first = subsets.find((s) => inSubset(s, cp));
    if (first) chosen.add(first);
  }
  const used = subsets.filter((s) => chosen.has(s));
  const key = `${font}:${used.map((s) => s.name).join(",")}`;
  let stack = stacks.get(key);
  if (!stack) {
    stack = { fonts: used.flatMap(facesOf), family: used.map((s) => s.name).join(", ") };
    stacks.set(key, stack);
  }
  return stack;
}

/** "U+0000-00FF,U+0131" as inclusive code point ranges. */
function parseUnicodeRange(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const part of text.split(",")) {
    const m = /^\s*U\+([0-9A-Fa-f]+)(?:-([0-9A-Fa-f]+))?\s*$/.exec(part);
    if (!m) continue;
    const from = Number.parseInt(m[1]!, 16);
    out.push([from, m[2] ? Number.parseInt(m[2], 16) : from]);
  }
  return out;
}

/**
 * A WOFF 1.0 file as the TrueType/OpenType file it wraps: the same tables,
 * zlib-inflated where they were compressed, each at a 4-byte boundary.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error("not a WOFF file");
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables: Array<{ tag: number; checksum: number; data: Buffer }> = [];
  for (let i = 0; i < numTables; i++) {
    const at = 44 + i * 20;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compLength);
    tables.push({
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: compLength < origLength ? inflateSync(raw) : raw,
    });
  }
  let size = 12 + 16 * numTables;
  for (const t of tables) size += (t.data.length + 3) & ~3;
  const out = Buffer.alloc(size);
  let entrySelector = 0;
  while (1 << (entrySelector + 1) <= numTables) entrySelector++;
  const searchRange = (1 << entrySelector) * 16;
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange, 10);
  let offset = 12 + 16 * numTables;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    out.writeUInt32BE(t.tag, at);
    out.writeUInt32BE(t.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(t.data.length, at + 12);
    t.data.copy(out, offset);
    offset += (t.data.length + 3) & ~3;
  });
  return out;
}
