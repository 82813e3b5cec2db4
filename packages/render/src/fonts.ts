// The fonts images are drawn with: three open families from @fontsource, read
// from the dependency's WOFF files (satori reads WOFF, not WOFF2) once per family
// and process. System fonts are never consulted, so pictures are identical on
// every machine.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Look } from "@tminus/core";

/** A font as satori takes it. */
export interface FontFace {
  name: string;
  data: Buffer;
  weight: 400 | 700;
  style: "normal";
}

/** Everything satori needs to draw one look's text. */
export interface FontStack {
  /** The faces; one array object per family, so satori's parsed-font cache hits. */
  fonts: FontFace[];
  /** CSS font-family list: the family's subsets, then fallbacks for missing scripts. */
  family: string;
  /** Whether every character of `text` has a glyph in the stack. */
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
const stacks = new Map<Look["font"], FontStack>();

/** The font stack of a look font, loaded on first use and kept for the process. */
export function fontStack(font: Look["font"]): FontStack {
  let stack = stacks.get(font);
  if (stack === undefined) {
    stack = loadStack(font);
    stacks.set(font, stack);
  }
  return stack;
}

function loadStack(font: Look["font"]): FontStack {
  const sources = [FAMILIES[font], ...(FAMILIES[font].subsets.includes("greek") ? [] : [FALLBACK])];
  const fonts: FontFace[] = [];
  const names: string[] = [];
  const ranges: Array<[number, number]> = [];
  for (const { pkg, subsets } of sources) {
    const unicode = JSON.parse(
      readFileSync(require.resolve(`@fontsource/${pkg}/unicode.json`), "utf8"),
    ) as Record<string, string>;
    for (const subset of subsets) {
      // satori keeps one face per name and weight, so each subset needs its own name
      // and the family list names them all: a character missing in one falls to the next.
      const name = `tminus-${pkg}-${subset}`;
      names.push(name);
      for (const weight of [REGULAR, BOLD] as const) {
        const file = require.resolve(
          `@fontsource/${pkg}/files/${pkg}-${subset}-${weight}-normal.woff`,
        );
        fonts.push({ name, data: readFileSync(file), weight, style: "normal" });
      }
      ranges.push(...parseUnicodeRange(unicode[subset] ?? ""));
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return {
    fonts,
    family: names.join(", "),
    covers: (text) => {
      for (const ch of text) {
        const cp = ch.codePointAt(0)!;
        if (!ranges.some(([from, to]) => cp >= from && cp <= to)) return false;
      }
      return true;
    },
  };
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
