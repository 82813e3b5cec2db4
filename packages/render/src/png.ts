// A palette PNG (colour type 3) of a composited frame: the same indices and
// palette as the GIF's first frame, so the still and the animation match.
import { crc32, deflateSync } from "node:zlib";
import type { IndexedImage } from "./gif/composite";
import type { Palette } from "./gif/palette";

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** Encodes indices and palette as a PNG; the transparent index gets alpha 0 (tRNS). */
export function encodePng(image: IndexedImage, palette: Palette): Uint8Array {
  const { w, h, pixels } = image;
  // Each row starts with its filter type; 0 (none) suits palette images best.
  const raw = new Uint8Array((w + 1) * h);
  for (let y = 0; y < h; y++) raw.set(pixels.subarray(y * w, (y + 1) * w), y * (w + 1) + 1);
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, w);
  view.setUint32(4, h);
  ihdr.set([8, 3, 0, 0, 0], 8); // 8-bit indices, palette, deflate, adaptive filters, no interlace
  const chunks = [chunk("IHDR", ihdr), chunk("PLTE", palette.rgb)];
  if (palette.transparentIndex >= 0) {
    const alpha = new Uint8Array(palette.transparentIndex + 1).fill(255);
    alpha[palette.transparentIndex] = 0;
    chunks.push(chunk("tRNS", alpha));
  }
  chunks.push(chunk("IDAT", deflateSync(raw, { level: 6 })), chunk("IEND", new Uint8Array(0)));
  const out = new Uint8Array(SIGNATURE.length + chunks.reduce((n, c) => n + c.length, 0));
  out.set(SIGNATURE);
  let at = SIGNATURE.length;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
