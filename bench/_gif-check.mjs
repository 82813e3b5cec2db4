// Checks a batch of GIFs after a timed run (never during it): each decodes with an
// independent decoder (omggif), every frame's LZW data to the end, and no two are equal.
// Shared by images-over-http.mjs and its renderMany child process.
import { createHash } from "node:crypto";
import omggif from "omggif";

/**
 * Decodes every GIF of `images` (all frames) and counts them by frame count; `seen` (a Set of
 * digests, shared across calls) tells images already seen, in this batch or an earlier one.
 * Returns { decoded, failed, frames: { [count]: n }, duplicates, firstError }.
 */
export function checkGifs(images, seen) {
  const out = { decoded: 0, failed: 0, frames: {}, duplicates: 0, firstError: null };
  let pixels = new Uint8Array(0);
  for (const bytes of images) {
    const digest = createHash("sha1").update(bytes).digest("base64");
    if (seen.has(digest)) out.duplicates++;
    else seen.add(digest);
    try {
      const reader = new omggif.GifReader(bytes);
      const need = reader.width * reader.height * 4;
      if (pixels.length < need) pixels = new Uint8Array(need);
      const n = reader.numFrames();
      for (let i = 0; i < n; i++) reader.decodeAndBlitFrameRGBA(i, pixels);
      out.decoded++;
      out.frames[n] = (out.frames[n] ?? 0) + 1;
    } catch (error) {
      out.failed++;
      out.firstError ??= String(error?.message ?? error);
    }
  }
  return out;
}
