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
  return {
    covers: (text) => font.missing(text).every((ch) => builtin.covers(ch)),
  };
}
