// The fonts images are drawn with: three open families from @fontsource for the
// look's own font, and Noto families for the scripts they lack, all read from the
// dependencies' WOFF files. System fonts are never consulted, so pictures are
// identical on every machine.
//
// A family ships as subsets (Latin, Latin Extended, Cyrillic, ...; the CJK
// families as about 120 numbered slices), two weights each. A look's text usually
// needs the Latin pair alone, so only the subsets its characters fall in are read
// and handed to satori: satori parses every face it is given, and that parse is
// most of the first image's time. Files are unpacked from WOFF here with
// node:zlib (satori would inflate them in JavaScript).
//
// Script fallbacks, after the look font: Noto Sans Arabic, Hebrew, Thai and
// Devanagari (dependencies, about 6 MB installed together), then the CJK families
// (optional peer dependencies of 54 to 82 MB each: a package that is not installed
// is simply not in the list, and text it would draw is refused: drawable.ts). satori
// shapes Arabic joining and Indic clusters with these faces and orders
// right-to-left runs itself (docs/render.md says how this was checked).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Look } from "@tminus/core";
import { type CodePointRanges, inRanges, woffCodePoints } from "./cmap";
import { unpackWoff } from "./uploads/woff";

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

/** Which characters a look font can draw (drawable.ts decides texts with it). */
export interface FontCoverage {
  /**
   * The face (subset) that draws `cp`, by an opaque id, or null when none has it: two code
   * points with the same id are drawn by the same face.
   */
  faceOf(cp: number): string | null;
  /** Whether the face `face` (an id from faceOf) has a glyph for `cp`. */
  faceHas(face: string, cp: number): boolean;
}

/** Weight of digits, separators and the ended text. */
export const BOLD = 700;
/** Weight of unit labels. */
export const REGULAR = 400;

// Which @fontsource package draws each look font, and which of its subsets ship.
// Lora has no Greek; Inter's Greek follows it in the family list (fallback below).
const FAMILIES: Readonly<Record<Look["font"], Source>> = {
  sans: { pkg: "inter", subsets: ["latin", "latin-ext", "cyrillic", "greek", "vietnamese"] },
  mono: {
    pkg: "roboto-mono",
    subsets: ["latin", "latin-ext", "cyrillic", "greek", "vietnamese"],
  },
  serif: { pkg: "lora", subsets: ["latin", "latin-ext", "cyrillic", "vietnamese"] },
};
const FALLBACK: Source = { pkg: "inter", subsets: ["greek"] };

/** A package and the subsets of it that are used; `numbered` takes its CJK slices. */
interface Source {
  pkg: string;
  subsets: readonly string[];
  numbered?: boolean;
}

/** The scripts the look fonts lack, each in its own Noto family. */
const SCRIPTS: readonly Source[] = [
  { pkg: "noto-sans-arabic", subsets: ["arabic"] },
  { pkg: "noto-sans-hebrew", subsets: ["hebrew"] },
  { pkg: "noto-sans-thai", subsets: ["thai"] },
  { pkg: "noto-sans-devanagari", subsets: ["devanagari"] },
];

// One code point, several glyph traditions: 直 differs between Japanese, Chinese
// and Korean type. The look's locale puts its own CJK family first; the others
// still draw what it lacks (Hangul is only in the Korean family, kana only in the
// Japanese one, in practice).
const CJK_ORDER: Readonly<Record<string, readonly string[]>> = {
  ja: ["jp", "sc", "tc", "kr"],
  ko: ["kr", "jp", "sc", "tc"],
  hant: ["tc", "sc", "jp", "kr"],
  other: ["sc", "tc", "jp", "kr"],
};

/** Which CJK order a locale takes: ja, ko, hant (Traditional Chinese) or other. */
function cjkPreference(locale: string): string {
  try {
    const tag = new Intl.Locale(locale).maximize();
    if (tag.language === "ja" || tag.language === "ko") return tag.language;
    if (tag.language === "zh" && tag.script === "Hant") return "hant";
  } catch {
    // Not a locale: the default order.
  }
  return "other";
}

// createRequire finds the files through the dependency's `exports` ("./files/*"),
// from src in tests and from dist when installed, ESM or CJS (tsup shims import.meta.url).
const require = createRequire(import.meta.url);

/** Whether an optional font package is installed (CJK families are optional peers). */
function installed(pkg: string): boolean {
  try {
    require.resolve(`@fontsource/${pkg}/unicode.json`);
    return true;
  } catch {
    return false;
  }
}

/** One subset of one family: its code points, and its two faces once read. */
interface Subset {
  pkg: string;
  /** The subset's part of the file names: "latin", or "57" for the slice "[57]". */
  part: string;
  name: string;
  /** Its code points as a CSS unicode-range, from the package's unicode.json. */
  unicodeRange: string;
  ranges: Array<[number, number]>;
  faces?: FontFace[];
  /** The code points its file really has glyphs for (its cmap), read when first asked. */
  glyphs?: CodePointRanges;
}

const families = new Map<string, Family>();
/**
 * Font stacks by the subsets a text needs. Texts come from user input (a look's labels, an
 * ended text in any script), so the combinations are many: the map starts over when full.
 * The faces themselves stay on their subsets, so a rebuilt stack reads no file again.
 */
export const FONT_STACKS_MAX = 1024;
const stacks = new Map<string, FontStack>();
const packages = new Map<string, Subset[]>();

/** The chosen subsets of one package, in its own order; read once per process. */
function packageSubsets(source: Source): Subset[] {
  const key = `${source.pkg}:${source.numbered ? "#" : source.subsets.join(",")}`;
  let list = packages.get(key);
  if (list) return list;
  const unicode = JSON.parse(
    readFileSync(require.resolve(`@fontsource/${source.pkg}/unicode.json`), "utf8"),
  ) as Record<string, string>;
  const names = source.numbered
    ? Object.keys(unicode).filter((name) => /^\[\d+\]$/.test(name))
    : source.subsets;
  list = names.map((subset) => {
    const file = subset.replace(/^\[(\d+)\]$/, "$1");
    return {
      pkg: source.pkg,
      part: file,
      // satori keeps one face per name and weight, so each subset needs its own
      // name and the family list names them all: a character missing in one falls
      // to the next.
      name: `tminus-${source.pkg}-${file}`,
      unicodeRange: unicode[subset] ?? "",
      ranges: parseUnicodeRange(unicode[subset] ?? ""),
    };
  });
  packages.set(key, list);
  return list;
}

// A subset's unicode-range says what it is meant for; its cmap says what it has (the range
// can claim more): both must agree, as satori picks a face by its cmap.
const inSubset = (subset: Subset, cp: number) =>
  subset.ranges.some(([from, to]) => cp >= from && cp <= to) && hasGlyph(subset, cp);

/** Whether the subset's file has a glyph for `cp`; the regular weight's cmap (the bold's is the same: font-stacks.test.ts). */
function hasGlyph(subset: Subset, cp: number): boolean {
  subset.glyphs ??= woffCodePoints(readFontFile(subset.pkg, subset.part, REGULAR, "woff"));
  return inRanges(subset.glyphs, cp);
}

/** A look font's subsets in fallback order, and which one draws each code point. */
interface Family {
  /** The family's first subset: Latin, which sets the line metrics. */
  first: Subset;
  /** The first subset (in fallback order) that has `cp`, if any. */
  find(cp: number): Subset | undefined;
  /** Subsets in fallback order, for the CSS family list. */
  order(used: Set<Subset>): Subset[];
  /** Every subset, fallbacks included, in fallback order. */
  all(): Subset[];
}

/** The look font's own subsets, with Inter's Greek where the family has none. */
function ownSubsets(font: Look["font"]): Subset[] {
  return [FAMILIES[font], ...(FAMILIES[font].subsets.includes("greek") ? [] : [FALLBACK])].flatMap(
    packageSubsets,
  );
}

/**
 * A look font in fallback order: the family, Inter's Greek where it has none, the
 * script families, then the installed CJK families in the order the locale
 * prefers. The fallbacks' code point tables are read only when a character is
 * missing from the look font, so Latin-only processes never parse them.
 */
function familyOf(font: Look["font"], locale: string): Family {
  const preference = cjkPreference(locale);
  const key = `${font}:${preference}`;
  const known = families.get(key);
  if (known) return known;
  const own = ownSubsets(font);
  let fallbacks: Subset[] | undefined;
  const more = () => {
    fallbacks ??= [
      ...SCRIPTS,
      ...(CJK_ORDER[preference] ?? []).map((region) => ({
        pkg: `noto-sans-${region}`,
        subsets: [],
        numbered: true,
      })),
    ]
      .filter((source) => installed(source.pkg))
      .flatMap(packageSubsets);
    return fallbacks;
  };
  // Hundreds of CJK slices with hundreds of ranges each: remember each answer.
  const memo = new Map<number, Subset | null>();
  const family: Family = {
    first: own[0]!,
    find(cp) {
      let hit = memo.get(cp);
      if (hit === undefined) {
        hit = own.find((s) => inSubset(s, cp)) ?? more().find((s) => inSubset(s, cp)) ?? null;
        if (memo.size >= 65_536) memo.clear();
        memo.set(cp, hit);
      }
      return hit ?? undefined;
    },
    order: (used) => [...own, ...(fallbacks ?? [])].filter((s) => used.has(s)),
    all: () => [...own, ...more()],
  };
  families.set(key, family);
  return family;
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
  return ownSubsets(font).map((s) => ({
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

/** What a look font can draw, with the script fallbacks a look in `locale` gets. */
export function fontCoverage(font: Look["font"], locale = "en"): FontCoverage {
  const family = familyOf(font, locale);
  const byName = new Map<string, Subset>();
  return {
    faceOf(cp) {
      const subset = family.find(cp);
      if (!subset) return null;
      byName.set(subset.name, subset);
      return subset.name;
    },
    faceHas(face, cp) {
      const subset = byName.get(face);
      return subset !== undefined && inSubset(subset, cp);
    },
  };
}

/** The subset packages a look font and its fallbacks may read, for tests: name, package, part. */
export function fontFiles(
  font: Look["font"],
  locale = "en",
): Array<{ name: string; pkg: string; part: string }> {
  return familyOf(font, locale)
    .all()
    .map(({ name, pkg, part }) => ({
      name,
      pkg,
      part,
    }));
}

/**
 * The faces that draw `text` in a look font: for each character the first subset
 * (in fallback order) that has it, which is the face satori would pick from the
 * whole list, so the pixels are the same. Digits are Latin, so Latin always
 * comes first and sets the line metrics, as with the whole family.
 */
export function fontStack(font: Look["font"], text: string, locale = "en"): FontStack {
  const family = familyOf(font, locale);
  const chosen = new Set<Subset>([family.first]);
  for (const ch of text) {
    const hit = family.find(ch.codePointAt(0)!);
    if (hit) chosen.add(hit);
  }
  const used = family.order(chosen);
  const key = `${font}:${used.map((s) => s.name).join(",")}`;
  let stack = stacks.get(key);
  if (!stack) {
    stack = { fonts: used.flatMap(facesOf), family: used.map((s) => s.name).join(", ") };
    if (stacks.size >= FONT_STACKS_MAX) stacks.clear();
    stacks.set(key, stack);
  }
  return stack;
}

/** Font stacks kept now (for tests: the map is bounded by {@link FONT_STACKS_MAX}). */
export function fontStacksKept(): number {
  return stacks.size;
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
 * A WOFF 1.0 file as the TrueType/OpenType file it wraps: the same tables, zlib-inflated
 * where they were compressed (uploads/woff.ts, which checks every size first).
 */
export function woffToSfnt(woff: Buffer): Buffer {
  return unpackWoff(woff);
}
