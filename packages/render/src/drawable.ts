// Whether a text can be drawn into an image, and if not, which character cannot. Images draw
// text with the look's font, the script fallbacks (fonts.ts) and Twemoji (emoji.ts); a text
// with a character none of them has is refused where it is typed (the API, the dashboard)
// rather than drawn with a missing-glyph box or replaced by other words. Any text a look
// draws (ended text, labels, separator, and later headings) goes through this one check,
// which decides grapheme by grapheme exactly as satori does when it draws:
//
// - a grapheme with U+FE0F (emoji presentation) or U+20E3 (keycap) is an emoji, even when
//   a font has its base character (satori asks for its picture);
// - otherwise the first face (in fallback order) whose cmap has the grapheme's first code
//   point draws it, and that face must have its other code points too (combining marks
//   are shaped with it);
// - a grapheme no face has is drawn as a Twemoji picture when the set has it.
//
// Text is taken in NFC, as it is drawn: a decomposed "é" is the precomposed one.
import { type Look, type LookInput, type TimeUnit, unitLabel } from "@tminus/core";
import { stripBidiControls } from "./_bidi";
import { resolveLookOption } from "./_look";
import { isDrawableEmoji } from "./emoji";
import { type FontCoverage, fontCoverage } from "./fonts";
import type { FontFile } from "./uploads/font-file";
import { withUploadedCoverage } from "./uploads/font-stack";

/** A character that cannot be drawn, and where it is. */
export interface UndrawableCharacter {
  /** The grapheme (what a reader sees as one character), as it is in the text. */
  grapheme: string;
  /** Its code point no face has, as "U+E000" (the grapheme's first, if each has a face). */
  codePoint: string;
  /** Its position in the text, counted in graphemes from 1, as a person counts. */
  position: number;
  /** Why, in a few words: "no font and no emoji has it". */
  reason: string;
}

/** A text field of a look that cannot be drawn. */
export interface DrawingProblem {
  /** The field as the API names it: "ended.text", "look.labels.days", "look.separator", "look.locale". */
  field: string;
  /** "U+E000 (character 6) cannot be drawn: no font and no emoji has it". */
  message: string;
  character: UndrawableCharacter;
}

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
// Invisible by nature (joiners, variation selectors, zero-width spaces): HarfBuzz draws
// nothing for them, whatever the font has.
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
const EMOJI_MARK = /[\uFE0F\u20E3]/;
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}]/u;

const codePointName = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * The first character of `text` that images of a look with `font` and `locale` cannot
 * draw, or null when every one can. Bidi controls are dropped before drawing, so they
 * never count.
 * @example undrawableCharacter("Sale \uE000", "sans") // { codePoint: "U+E000", position: 6, ... }
 */
export function undrawableCharacter(
  text: string,
  font: Look["font"],
  locale = "en",
): UndrawableCharacter | null {
  return firstUndrawable(text, fontCoverage(font, locale));
}

/** {@link undrawableCharacter} with a coverage already made. */
export function firstUndrawable(text: string, fonts: FontCoverage): UndrawableCharacter | null {
  // ASCII letters, digits and punctuation are in every look font: most texts stop here.
  if (/^[\x20-\x7e]*$/.test(text)) return null;
  let position = 0;
  for (const { segment } of segmenter.segment(stripBidiControls(text).normalize("NFC"))) {
    position++;
    if (drawable(segment, fonts)) continue;
    const missing = [...segment].find((ch) => !IGNORABLE.test(ch) && !fonts.faceOf(cp(ch)));
    const at = cp(missing ?? segment);
    return {
      grapheme: segment,
      codePoint: codePointName(at),
      position,
      reason: CJK.test(missing ?? segment)
        ? "no installed font has it (Chinese, Japanese and Korean need @fontsource/noto-sans-sc, -tc, -jp or -kr installed beside @tminus/render)"
        : "no font and no emoji has it",
    };
  }
  return null;
}

const cp = (ch: string) => ch.codePointAt(0)!;

function drawable(grapheme: string, fonts: FontCoverage): boolean {
  const chars = [...grapheme];
  if (chars.every((ch) => IGNORABLE.test(ch))) return true;
  if (!EMOJI_MARK.test(grapheme)) {
    const face = fonts.faceOf(cp(chars[0]!));
    if (face !== null && chars.every((ch) => IGNORABLE.test(ch) || fonts.faceHas(face, cp(ch))))
      return true;
  }
  return isDrawableEmoji(grapheme);
}

/** "U+E000 (character 6) cannot be drawn: ...": the message of a refused text. */
export function describeUndrawable(character: UndrawableCharacter): string {
  const shown = IGNORABLE.test(character.grapheme) ? "" : ` "${character.grapheme}"`;
  return `${character.codePoint}${shown} (character ${character.position}) cannot be drawn: ${character.reason}`;
}

/**
 * The first text of a look (and its ended text) that images cannot draw: the separator,
 * each own label word, the locale's label words while labels show, then the ended text.
 * Null when all of it can be drawn. The API and the dashboard refuse a look with a problem;
 * the image functions throw it as a RenderError. With `uploadedFont` (the look's upload), a
 * character it has is drawable too: it stands in front of the built-in font.
 * @example lookDrawingProblem({ labels: { days: "días 🔥" } }, "🎅 Sale over! 🎁") // null
 */
export function lookDrawingProblem(
  lookInput: Look | LookInput | undefined,
  endedText?: string,
  uploadedFont?: FontFile | null,
): DrawingProblem | null {
  const { look } = resolveLookOption(lookInput);
  const builtin = fontCoverage(look.font, look.locale);
  const fonts = uploadedFont ? withUploadedCoverage(uploadedFont, builtin) : builtin;
  const check = (field: string, text: string): DrawingProblem | null => {
    const character = firstUndrawable(text, fonts);
    return character ? { field, message: describeUndrawable(character), character } : null;
  };
  const found =
    check("look.separator", look.separator) ??
    (
      Object.entries(look.labels) as Array<[TimeUnit, string | undefined]>
    ).reduce<DrawingProblem | null>(
      (hit, [unit, word]) => hit ?? check(`look.labels.${unit}`, word ?? ""),
      null,
    ) ??
    (look.show_labels ? localeProblem(look, fonts) : null) ??
    (endedText === undefined ? null : check("ended.text", endedText)) ??
    wordsProblem(look, fonts);
  return found;
}

/**
 * The heading, line below or button label that cannot be drawn: with the look's fonts (an
 * upload too), or with the built-in font the words chose.
 */
function wordsProblem(look: Look, lookFonts: FontCoverage): DrawingProblem | null {
  const words: Array<[string, string | undefined, Look["font"] | null | undefined]> = [
    ["look.heading.text", look.heading?.text, look.heading?.font],
    ["look.subheading.text", look.subheading?.text, look.subheading?.font],
    ["look.button.label", look.button?.label, look.button?.font],
  ];
  for (const [field, text, font] of words) {
    if (text === undefined) continue;
    const fonts = font ? fontCoverage(font, look.locale) : lookFonts;
    const character = firstUndrawable(text, fonts);
    if (character) return { field, message: describeUndrawable(character), character };
  }
  return null;
}

/** The locale's own label words (those no override replaces) that cannot be drawn. */
function localeProblem(look: Look, fonts: FontCoverage): DrawingProblem | null {
  for (const unit of look.units) {
    if (look.labels[unit] !== undefined) continue;
    // Every plural form of a unit shares its script: a few counts stand for all of them.
    for (const n of [0, 1, 2, 5, 21]) {
      const character = firstUndrawable(unitLabel(unit, n, look.locale), fonts);
      if (character)
        return {
          field: "look.locale",
          message: `the ${look.locale} labels cannot be drawn: ${describeUndrawable(character)}`,
          character,
        };
    }
  }
  return null;
}
