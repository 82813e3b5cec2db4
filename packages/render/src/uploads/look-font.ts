// What a look asks of its uploaded font: the characters its images and pages draw with it,
// to cut the font down to (subset.ts), and what the font must be able to draw, to refuse a
// look it cannot (the digits, the separator and the labels) before any image is made.
import type { Look, LookInput, TimeUnit } from "@tminus/core";
import { stripBidiControls } from "../_bidi";
import { resolveLookOption } from "../_look";
import { labelForms } from "../content";
import { DIGITS, type FontFile } from "./font-file";

/** The labels a look shows, each form its locale can take, with its own words first. */
function labelWords(look: Look): string[] {
  if (!look.show_labels) return [];
  const overrides: Partial<Record<TimeUnit, string>> = {};
  for (const [unit, word] of Object.entries(look.labels) as Array<[TimeUnit, string | undefined]>)
    if (word !== undefined) overrides[unit] = stripBidiControls(word);
  return look.units.flatMap((unit) => labelForms(unit, look.locale, overrides));
}

/** The words a look draws around the countdown (heading, subheading, button) in its own font. */
function wordsInLookFont(look: Look): string {
  const words: string[] = [];
  // A part with a built-in `font` of its own is not drawn with the uploaded one.
  if (look.heading && !look.heading.font) words.push(look.heading.text);
  if (look.subheading && !look.subheading.font) words.push(look.subheading.text);
  if (look.button && !look.button.font) words.push(look.button.label);
  return stripBidiControls(words.join(""));
}

/**
 * Every character a look draws with its uploaded font: the digits, the separator, every form
 * of every label in its locale, the heading, subheading and button words that take the look's
 * font, the ended text, and `more` (a page's heading, say). The characters of a subset that
 * serves this look's images and pages.
 * @example const small = await subsetFont(font.sfnt, lookFontText(timer.look, { endedText: timer.ended.text }));
 */
export function lookFontText(
  look: Look | LookInput,
  options: { endedText?: string; more?: string } = {},
): string {
  const resolved = resolveLookOption(look).look;
  const chars = new Set(
    DIGITS +
      stripBidiControls(resolved.separator) +
      labelWords(resolved).join("") +
      wordsInLookFont(resolved) +
      stripBidiControls(options.endedText ?? "") +
      (options.more ?? ""),
  );
  return [...chars].sort().join("");
}

/** Which part of a look a font cannot draw, and the characters it lacks there. */
export interface LookFontProblem {
  /** The look field to fix: `look.separator`, `look.labels` or `look.locale`. */
  field: "look.separator" | "look.labels" | "look.locale";
  missing: string[];
  /** A sentence naming the characters, for an API's error message. */
  message: string;
}

/**
 * What an uploaded font cannot draw of a look (its separator, then its labels), or null when it
 * draws all of it. The digits were checked when the font was read.
 * @example const problem = lookFontProblem(inspectFont(bytes), look); // { field: "look.labels", ... }
 */
export function lookFontProblem(font: FontFile, look: Look | LookInput): LookFontProblem | null {
  const resolved = resolveLookOption(look).look;
  const separator = font.missing(stripBidiControls(resolved.separator).replace(/\s/g, ""));
  if (separator.length > 0)
    return {
      field: "look.separator",
      missing: separator,
      message: `the uploaded font cannot draw the separator's ${quoted(separator)}`,
    };
  const own = Object.values(resolved.labels).some((word) => word !== undefined && word !== "");
  const labels = font.missing(labelWords(resolved).join("").replace(/\s/g, ""));
  if (labels.length > 0)
    return {
      field: own ? "look.labels" : "look.locale",
      missing: labels,
      message:
        `the uploaded font cannot draw ${quoted(labels)} of the labels` +
        (own ? "" : ` in locale ${resolved.locale}`) +
        ": choose other labels, another font, or show_labels false",
    };
  return null;
}

function quoted(chars: readonly string[]): string {
  const shown = chars.slice(0, 12).map((ch) => `"${ch}"`);
  return chars.length > 12 ? `${shown.join(", ")} and ${chars.length - 12} more` : shown.join(", ");
}
