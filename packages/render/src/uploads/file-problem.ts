// Why an uploaded file was refused, in words its owner can act on. Each refusal names one
// reason, so an API can answer it as one clear error and store nothing.

/**
 * - `unsupported_format`: not a font (TTF, OTF, WOFF) or not an image (PNG, JPEG) at all, or
 *   a kind of one that is not taken (WOFF2, a font collection, an animated or 16-bit file is fine);
 * - `malformed`: it claims to be one but does not read as one (truncated, damaged tables);
 * - `too_large`: its declared size (pixels across and down, unpacked bytes) is over the limit;
 * - `missing_glyphs`: a font that cannot draw what it must (`missing` lists the characters).
 */
export type FileProblemReason = "unsupported_format" | "malformed" | "too_large" | "missing_glyphs";

/** An uploaded file that cannot be used, and why (see {@link FileProblemReason}). */
export class FileProblem extends Error {
  override readonly name = "FileProblem";
  readonly reason: FileProblemReason;
  /** `missing_glyphs`: the characters the font lacks, each once, in the order first met. */
  readonly missing: readonly string[];

  constructor(reason: FileProblemReason, message: string, missing: readonly string[] = []) {
    super(message);
    this.reason = reason;
    this.missing = missing;
  }
}

/** A `malformed` problem: `what` did not read (e.g. "the cmap table is cut short"). */
export function malformed(what: string): FileProblem {
  return new FileProblem("malformed", what);
}
