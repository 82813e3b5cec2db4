// Colour emoji for images: Twemoji's SVGs from the @twemoji/svg package (one file per emoji,
// named by its code points), read from disk when a look's atlas needs one. satori has no
// colour font support; it asks for an image of each emoji its fonts lack
// (`loadAdditionalAsset("emoji", grapheme)`) and draws it one em square, and resvg
// rasterises the SVG inside the sheet. Nothing is fetched: the files ship with the package.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";

const require = createRequire(import.meta.url);

let directory: string | undefined;
let names: ReadonlySet<string> | undefined;

/** The package's folder and its file names (without ".svg"), listed once per thread. */
function emojiNames(): ReadonlySet<string> {
  if (!names) {
    directory = dirname(require.resolve("@twemoji/svg/package.json"));
    names = new Set(
      readdirSync(directory)
        .filter((f) => f.endsWith(".svg"))
        .map((f) => f.slice(0, -4)),
    );
  }
  return names;
}

const hex = (text: string) => [...text].map((c) => c.codePointAt(0)!.toString(16));

/**
 * The Twemoji file of one grapheme, or null when it is no emoji of the set. Twemoji names a
 * sequence by its code points; U+FE0F (emoji presentation) is left out of the name unless
 * the sequence has a zero-width joiner. Both spellings are tried, so "❤" and "❤️" find 2764.
 */
export function emojiFile(grapheme: string): string | null {
  const known = emojiNames();
  const all = hex(grapheme);
  const bare = all.filter((h) => h !== "fe0f");
  const preferred = grapheme.includes("\u200d") ? [all, bare] : [bare, all];
  for (const parts of preferred) {
    const name = parts.join("-");
    if (name !== "" && known.has(name)) return name;
  }
  return null;
}

// A lone regional indicator letter or skin tone: satori gathers the emoji of a whole sheet
// into one string before it splits them, so two lone letters anywhere on it would pair into
// a flag, and a skin tone would join the emoji before it.
const LONE_JOINER = /^[\u{1F1E6}-\u{1F1FF}\u{1F3FB}-\u{1F3FF}]$/u;

// Twemoji also draws a private-use character (U+E50A); satori never takes one for an emoji.
const PRIVATE_USE = /\p{Co}/u;

/** Whether the grapheme is an emoji the set draws (not a lone indicator letter or skin tone). */
export function isDrawableEmoji(grapheme: string): boolean {
  return !LONE_JOINER.test(grapheme) && !PRIVATE_USE.test(grapheme) && emojiFile(grapheme) !== null;
}

// A campaign reuses a handful of emoji; a user can type thousands. Bounded.
const EMOJI_CACHE_MAX = 512;
const dataUris = new Map<string, string>();

/** The emoji as an SVG data URI for satori's `<image>`, or null when the set lacks it. */
export function emojiDataUri(grapheme: string): string | null {
  const name = emojiFile(grapheme);
  if (name === null) return null;
  let uri = dataUris.get(name);
  if (uri === undefined) {
    const svg = readFileSync(`${directory}/${name}.svg`);
    uri = `data:image/svg+xml;base64,${svg.toString("base64")}`;
    if (dataUris.size >= EMOJI_CACHE_MAX) dataUris.clear();
    dataUris.set(name, uri);
  }
  return uri;
}

/**
 * satori's hook for text its fonts lack: an emoji's picture, nothing for anything else
 * (such characters are refused before a look is drawn: see drawable.ts).
 */
export async function loadAdditionalAsset(code: string, segment: string): Promise<string | []> {
  if (code !== "emoji") return [];
  return emojiDataUri(segment) ?? [];
}
