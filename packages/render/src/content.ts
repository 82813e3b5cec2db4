// What each frame says, as text: digits per shown unit, their labels, or the
// ended text. Everything an image can show for a look is known up front, so the
// atlas can rasterise it once.
import {
  formatParts,
  type Look,
  type RemainingPart,
  remainingSplitter,
  type TimeUnit,
  unitLabel,
} from "@tminus/core";
import { stripBidiControls } from "./_bidi";
import { lookDrawingProblem } from "./drawable";
import { RenderError } from "./errors";
import type { FontFile } from "./uploads/font-file";

/** One shown unit of a counting frame. */
export interface PartText {
  unit: TimeUnit;
  /** ASCII digits, padded as the look says. */
  digits: string;
  /** The unit's label in the form this value takes, or "" when labels are hidden. */
  label: string;
}

/** The text of one frame: counting parts, or the ended text. */
export type FrameContent = { ended: false; parts: PartText[] } | { ended: true; text: string };

/** Text a look draws: every character of it has a glyph or an emoji picture. */
export interface LookText {
  look: Look;
  separator: string;
  endedText: string;
  /** Locale of the labels: the look's. */
  labelLocale: string;
  /** The look's label overrides. */
  labelOverrides: Partial<Record<TimeUnit, string>>;
  /** Every label form per shown unit (empty lists when labels are hidden), computed once. */
  labelsByUnit: ReadonlyMap<TimeUnit, readonly string[]>;
  /** The label of `value` in `unit` (plural rules run once per value, not per frame). */
  labelOf(unit: TimeUnit, value: number): string;
  /** `remaining` seconds split into the look's shown units (the units worked out once). */
  split(remaining: number): RemainingPart[];
  /** The words drawn in the image, as drawn (bidi controls dropped, NFC): "" when none. */
  heading: string;
  subheading: string;
  button: string;
}

/**
 * Decides the text a look draws. Images draw Latin, Cyrillic, Greek and Vietnamese
 * with the look font, Arabic, Hebrew, Thai and Devanagari with Noto, Chinese,
 * Japanese and Korean when their optional Noto packages are installed (fonts.ts), and
 * emoji as Twemoji pictures (emoji.ts). A text with a character none of them has is
 * refused (RenderError naming the field and the character): nothing is replaced or
 * dropped. Hosted pages use the same words with the browser's fonts.
 */
export function lookText(
  look: Look,
  rawEndedText: string,
  uploadedFont?: FontFile | null,
): LookText {
  const problem = lookDrawingProblem(look, rawEndedText, uploadedFont);
  if (problem)
    throw new RenderError(
      "validation_error",
      `${problem.field}: ${problem.message}`,
      problem.field,
    );
  // Nothing in an image can contain a direction override: the controls are dropped. Text is
  // drawn in NFC: a decomposed accent is the precomposed letter the fonts have.
  const clean = (text: string) => stripBidiControls(text).normalize("NFC");
  const overrides: Partial<Record<TimeUnit, string>> = {};
  for (const [unit, raw] of Object.entries(look.labels) as Array<[TimeUnit, string | undefined]>)
    if (raw !== undefined) overrides[unit] = clean(raw);
  const separator = clean(look.separator);
  const endedText = clean(rawEndedText);
  const labelLocale = look.locale;
  const labelsByUnit = new Map<TimeUnit, readonly string[]>();
  // An empty override means "no label" for that unit: nothing to draw or lay out.
  for (const unit of look.units)
    labelsByUnit.set(
      unit,
      look.show_labels ? labelForms(unit, labelLocale, overrides).filter((w) => w !== "") : [],
    );
  const known = new Map<TimeUnit, Map<number, string>>();
  const labelOf = (unit: TimeUnit, value: number): string => {
    let byValue = known.get(unit);
    if (!byValue) {
      byValue = new Map();
      known.set(unit, byValue);
    }
    let word = byValue.get(value);
    if (word === undefined) {
      word = unitLabel(unit, value, labelLocale, overrides);
      // Days are unbounded: keep the first few thousand values, compute the rest.
      if (byValue.size < 4096) byValue.set(value, word);
    }
    return word;
  };
  return {
    look,
    labelOf,
    split: remainingSplitter({
      largestUnit: look.largest_unit,
      units: look.units,
      hideLeadingZeroUnits: look.hide_leading_zero_units,
    }),
    heading: clean(look.heading?.text ?? ""),
    subheading: clean(look.subheading?.text ?? ""),
    button: clean(look.button?.label ?? ""),
    separator,
    endedText,
    labelLocale,
    labelOverrides: overrides,
    labelsByUnit,
  };
}

// Integers whose plural category every CLDR rule set can tell apart: categories
// depend on n mod 10, mod 100 and mod 1000, and French/Spanish/Italian/Portuguese
// "many" on exact millions.
const SAMPLE_VALUES: readonly number[] = [
  ...Array.from({ length: 1100 }, (_, i) => i),
  1_000_000,
  2_000_000,
];

// Words per unit and locale: a thousand unitLabel calls per unit, for every look of
// a locale otherwise. Locales come from user input, so the table stays bounded.
const formsByLocale = new Map<string, readonly string[]>();

/** Every word `unit` can take as a label in `locale`: all plural forms that can appear. */
export function labelForms(
  unit: TimeUnit,
  locale: string,
  overrides: Partial<Record<TimeUnit, string>>,
): readonly string[] {
  const override = overrides[unit];
  if (override !== undefined) return [override];
  const key = `${unit}\u0000${locale}`;
  let forms = formsByLocale.get(key);
  if (!forms) {
    const words = new Set<string>();
    for (const n of SAMPLE_VALUES) words.add(unitLabel(unit, n, locale));
    forms = [...words];
    if (formsByLocale.size >= 1000) formsByLocale.clear();
    formsByLocale.set(key, forms);
  }
  return forms;
}

/** The text of the frame `remaining` seconds before the end (0 or less: ended). */
export function frameContent(text: LookText, remaining: number): FrameContent {
  if (remaining <= 0) return { ended: true, text: text.endedText };
  const { look } = text;
  const parts = formatParts(text.split(remaining), { pad: look.pad });
  return {
    ended: false,
    parts: parts.map((part) => ({
      unit: part.unit,
      digits: part.text,
      label: look.show_labels ? text.labelOf(part.unit, part.value) : "",
    })),
  };
}

/** Every character a look's images can draw: digits, separator, labels, ended text, words. */
export function drawnText(text: LookText): string {
  return `0123456789${drawnSeparator(text)}${allLabels(text).join("")}${text.endedText}${text.heading}${text.subheading}${text.button}`;
}

/** The separator images draw: none in the minimal style. */
export function drawnSeparator(text: LookText): string {
  return text.look.style === "minimal" ? "" : text.separator;
}

/** Every label string a look can show, for the atlas. */
export function allLabels(text: LookText): string[] {
  const words = new Set<string>();
  for (const forms of text.labelsByUnit.values()) for (const word of forms) words.add(word);
  words.delete("");
  return [...words];
}
