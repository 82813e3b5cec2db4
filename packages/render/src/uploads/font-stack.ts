// An uploaded font in front of the built-in stack: satori takes faces in the family's order,
// so the upload draws every character it has and the look's built-in font the rest (an ended
// text in another script), exactly as it would with the whole file.
import { BOLD, type FontCoverage, type FontStack, REGULAR } from "../fonts";
import type { FontFile } from "./font-file";

/** The CSS family name images and pages give an uploaded font. */
export function uploadedFamily(id: string): string {
  return `tminus-upload-${id}`;
}

/**
 * `stack` with the uploaded `font` first. One file serves both weights: digits are drawn bold
 * and labels regular, and an upload is one weight, so both ask for the same face rather than
 * falling through to the built-in font.
 */
export function withUploadedFont(stack: FontStack, id: string, font: FontFile): FontStack {
  const name = uploadedFamily(id);
  const data = Buffer.from(font.sfnt.buffer, font.sfnt.byteOffset, font.sfnt.byteLength);
  return {
    fonts: [
      { name, data, weight: REGULAR, style: "normal" },
      { name, data, weight: BOLD, style: "normal" },
      ...stack.fonts,
    ],
    family: `${name}, ${stack.family}`,
  };
}

/** What the upload and the built-in stack behind it draw together. */
export function withUploadedCoverage(font: FontFile, builtin: FontCoverage): FontCoverage {
  // The upload is first in the family: it draws whatever it has, the built-in faces the rest.
  const has = (cp: number) => font.missing(String.fromCodePoint(cp)).length === 0;
  return {
    faceOf: (cp) => (has(cp) ? UPLOAD_FACE : builtin.faceOf(cp)),
    faceHas: (face, cp) => (face === UPLOAD_FACE ? has(cp) : builtin.faceHas(face, cp)),
  };
}

// An id no built-in subset has (theirs are package and subset names).
const UPLOAD_FACE = "\0upload";
