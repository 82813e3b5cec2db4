// Bidirectional embedding, override and isolate controls (U+202A..U+202E,
// U+2066..U+2069) in user text can reorder what a viewer reads: "‮sdnE" shows as
// "Ends". Pages keep user text in elements of its own (dir="auto"), which contain
// their effect; images and page titles, where nothing can contain them, lose them.

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** The text without embedding, override and isolate controls. */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, "");
}
