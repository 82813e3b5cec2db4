// Bidirectional embedding, override and isolate controls (U+202A..U+202E,
// U+2066..U+2069) in user text can reorder what a viewer reads: "‮sdnE" shows as
// "Ends". Pages keep user text in elements of its own (dir="auto"), which contain
// their effect; images and page titles, where nothing can contain them, lose them.

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** The text without embedding, override and isolate controls. */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, "");
}

// Strong right-to-left letters: Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan,
// Mandaic and their presentation forms, and the RTL blocks of the supplementary planes.
const RTL_LETTER =
  /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
const LETTER = /\p{L}/u;

/**
 * The base direction a paragraph of `text` takes by the Unicode bidi rules P2-P3
 * (what `dir="auto"` does in a browser): that of its first strong letter, LTR
 * when it has none. Images need it for where neutral characters go: "!" ends an
 * RTL sentence on its left.
 */
export function baseDirection(text: string): "ltr" | "rtl" {
  for (const ch of text) if (LETTER.test(ch)) return RTL_LETTER.test(ch) ? "rtl" : "ltr";
  return "ltr";
}
