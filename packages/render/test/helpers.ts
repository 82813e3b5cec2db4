// Decoding what the renderer produced with independent code: omggif for GIFs
// (a real decoder, not ours), node:zlib plus a few lines for palette PNGs.
import { inflateSync } from "node:zlib";
import omggif, { type GifFrameInfo } from "omggif";

/** RGBA pixels of a whole image. */
export interface Picture {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** A decoded GIF: its structure and every frame as shown on screen. */
export interface DecodedGif {
  width: number;
  height: number;
  /** null: no NETSCAPE2.0 extension (plays once); 0: loops forever. */
  loopCount: number | null;
  info: GifFrameInfo[];
  /** The logical screen after each frame, disposal methods applied as browsers do. */
  frames: Picture[];
}

/** Decodes every frame and composes them onto the logical screen in order. */
export function decodeGif(bytes: Uint8Array): DecodedGif {
  const reader = new omggif.GifReader(bytes);
  const { width, height } = reader;
  const screen = new Uint8Array(width * height * 4);
  const info: GifFrameInfo[] = [];
  const frames: Picture[] = [];
  let previous: GifFrameInfo | null = null;
  for (let i = 0; i < reader.numFrames(); i++) {
    // Disposal 2 of the previous frame: its rectangle goes back to transparent.
    if (previous?.disposal === 2) {
      for (let y = previous.y; y < previous.y + previous.height; y++)
        screen.fill(0, (y * width + previous.x) * 4, (y * width + previous.x + previous.width) * 4);
    }
    const frame = reader.frameInfo(i);
    reader.decodeAndBlitFrameRGBA(i, screen);
    info.push(frame);
    frames.push({ width, height, rgba: screen.slice() });
    previous = frame;
  }
  return { width, height, loopCount: reader.loopCount(), info, frames };
}

/** Decodes a palette PNG (colour type 3, 8 bits, no interlace) as the renderer writes it. */
export function decodePng(bytes: Uint8Array): Picture & { transparentIndex: number | null } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let palette: Uint8Array = new Uint8Array(0);
  let alpha: Uint8Array = new Uint8Array(0);
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      if (data[8] !== 8 || data[9] !== 3) throw new Error("not an 8-bit palette PNG");
    } else if (type === "PLTE") palette = data;
    else if (type === "tRNS") alpha = data;
    else if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    if (raw[y * (width + 1)] !== 0) throw new Error("unexpected PNG row filter");
    for (let x = 0; x < width; x++) {
      const index = raw[y * (width + 1) + 1 + x]!;
      const o = (y * width + x) * 4;
      rgba[o] = palette[index * 3]!;
      rgba[o + 1] = palette[index * 3 + 1]!;
      rgba[o + 2] = palette[index * 3 + 2]!;
      rgba[o + 3] = index < alpha.length ? alpha[index]! : 255;
    }
  }
  const t = alpha.indexOf(0);
  return { width, height, rgba, transparentIndex: t >= 0 ? t : null };
}

/** How two pictures differ: the largest channel difference and the share of pixels that differ at all. */
export function compare(a: Picture, b: Picture): { max: number; differing: number } {
  if (a.width !== b.width || a.height !== b.height)
    throw new Error(`sizes differ: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  let max = 0;
  let differing = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    let d = 0;
    for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a.rgba[i + c]! - b.rgba[i + c]!));
    if (d > 0) differing++;
    max = Math.max(max, d);
  }
  return { max, differing: differing / (a.rgba.length / 4) };
}

/** Whether two pictures are identical, pixel for pixel. */
export function samePixels(a: Picture, b: Picture): boolean {
  return (
    a.width === b.width && a.height === b.height && Buffer.from(a.rgba).equals(Buffer.from(b.rgba))
  );
}

/** Days, hours, minutes and seconds as seconds. */
export function dhms(d: number, h: number, m: number, s: number): number {
  return ((d * 24 + h) * 60 + m) * 60 + s;
}
