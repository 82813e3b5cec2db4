// The look's font on the hosted page and the embed: the same @fontsource files the
// images are drawn with, served by the package itself (never a font CDN). One
// @font-face per subset and weight with its unicode-range, so a browser downloads
// only the subsets the page's text uses (usually Latin, two files of about 24 KB).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Look } from "@tminus/core";
import { allWebFontSubsets, readFontFile, type WebFontSubset, webFontSubsets } from "../fonts";

const require = createRequire(import.meta.url);

/** A font file as a route serves it. */
export interface WebFontFile {
  body: Uint8Array;
  contentType: "font/woff2" | "font/woff";
}

const WEIGHTS = [400, 700] as const;
const FORMATS = ["woff2", "woff"] as const;

/** The CSS family the pages draw emoji with: Twemoji, the pictures the images draw. */
export const EMOJI_FAMILY = "tminus-emoji";

// Twemoji as a colour (COLR) web font, from twemoji-colr-font (475 KB, one file): the
// pages show the same emoji pictures as the images, whatever emoji the viewer's system
// has, and a browser downloads it only for a page with a character in this range. ASCII
// stays with the look font (keycaps' digits too).
const EMOJI_VERSION = "15.0.3";
const EMOJI_FILE = `twemoji-${EMOJI_VERSION}.woff2`;
const EMOJI_RANGE =
  "U+A9,U+AE,U+200D,U+203C,U+2049,U+20E3,U+2122,U+2139,U+2194-21AA,U+231A-23FF,U+24C2," +
  "U+25AA-27BF,U+2934-2935,U+2B05-2B55,U+3030,U+303D,U+3297,U+3299,U+FE0F,U+1F000-1FAFF," +
  "U+E0020-E007F";

/** The CSS family name the pages give a look font. */
export function webFontFamily(font: Look["font"]): string {
  return `tminus-${font}`;
}

// The package version is part of the name, so a file's URL never changes its bytes and
// may be cached for a year.
function fileName(s: WebFontSubset, weight: 400 | 700, format: "woff2" | "woff"): string {
  return `${s.pkg}-${s.version}-${s.part}-${weight}.${format}`;
}

/**
 * `@font-face` rules for a look font, its files under `fontsUrl` (an absolute URL
 * ending in "/", where {@link webFontFile} answers by file name). `font-display:
 * swap`: the countdown shows at once in a system font and switches when the file is in.
 */
export function webFontCss(font: Look["font"], fontsUrl: string): string {
  const family = webFontFamily(font);
  return webFontSubsets(font)
    .flatMap((s) =>
      WEIGHTS.map(
        (weight) =>
          `@font-face{font-family:"${family}";font-style:normal;font-weight:${weight};font-display:swap;` +
          `src:${FORMATS.map((f) => `url("${fontsUrl}${fileName(s, weight, f)}") format("${f}")`).join(",")};` +
          `unicode-range:${s.unicodeRange}}`,
      ),
    )
    .concat(
      `@font-face{font-family:"${EMOJI_FAMILY}";font-style:normal;font-display:swap;` +
        `src:url("${fontsUrl}${EMOJI_FILE}") format("woff2");unicode-range:${EMOJI_RANGE}}`,
    )
    .join("\n");
}

let files: Map<string, { s: WebFontSubset; weight: 400 | 700; format: "woff2" | "woff" }> | null =
  null;

/**
 * The font file named `name` (a name {@link webFontCss} links to, e.g.
 * "inter-5.3.0-latin-700.woff2"), or null for any other name. Names are looked up in
 * the list of files that exist, so no path a client sends ever reaches the file system.
 */
export function webFontFile(name: string): WebFontFile | null {
  if (name === EMOJI_FILE)
    return {
      body: readFileSync(require.resolve("twemoji-colr-font/twemoji.woff2")),
      contentType: "font/woff2",
    };
  if (files === null) {
    files = new Map();
    for (const s of allWebFontSubsets())
      for (const weight of WEIGHTS)
        for (const format of FORMATS) files.set(fileName(s, weight, format), { s, weight, format });
  }
  const found = files.get(name);
  if (!found) return null;
  return {
    body: readFontFile(found.s.pkg, found.s.part, found.weight, found.format),
    contentType: found.format === "woff2" ? "font/woff2" : "font/woff",
  };
}
