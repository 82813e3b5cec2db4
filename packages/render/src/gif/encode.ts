// The GIF89a container written by hand, so every frame can cover just the
// rectangle that changed; the frames arrive LZW-compressed (lzw.ts), many of
// them straight from the frame cache.
import type { Palette } from "./palette";
import type { Box } from "./scene";

/** One image block of an animated GIF. */
export interface GifFrame {
  /** Where the frame's pixels go on the logical screen. */
  box: Box;
  /** The frame's LZW image data (see lzw.ts): code size, sub-blocks, terminator. */
  data: Uint8Array;
  /** Display time in hundredths of a second. */
  delay: number;
  /** 1: leave the pixels for the next frame; 2: clear the box to transparent after it. */
  dispose: 1 | 2;
  /** The index this frame leaves transparent; without it, the palette's (if any). */
  transparent?: number;
}

/** The whole animation. */
export interface GifSpec {
  width: number;
  height: number;
  palette: Palette;
  /** Adds the NETSCAPE2.0 extension: loop forever. */
  loop: boolean;
  frames: readonly GifFrame[];
}

/** A growable byte buffer. */
class ByteWriter {
  private buf: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.length++] = b;
  }

  u16(n: number): void {
    this.ensure(2);
    this.buf[this.length++] = n & 255;
    this.buf[this.length++] = (n >> 8) & 255;
  }

  bytes(data: ArrayLike<number>): void {
    this.ensure(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }

  ascii(text: string): void {
    for (let i = 0; i < text.length; i++) this.byte(text.charCodeAt(i));
  }

  result(): Uint8Array {
    return this.length === this.buf.length ? this.buf : this.buf.slice(0, this.length);
  }
}

/**
 * Writes a GIF89a: logical screen with one global colour table, an optional loop
 * extension, then per frame a graphic control extension (delay, disposal,
 * transparency) and an image descriptor with the frame's own left/top/size.
 */
export function encodeGif(spec: GifSpec): Uint8Array {
  const { palette } = spec;
  const bits = Math.max(1, palette.bits);
  // Exactly the bytes written: header and screen, colour table, loop, frames, trailer.
  const size =
    13 +
    (3 << bits) +
    (spec.loop ? 19 : 0) +
    spec.frames.reduce((n, f) => n + 18 + f.data.length, 0) +
    1;
  const out = new ByteWriter(size);
  out.ascii("GIF89a");
  out.u16(spec.width);
  out.u16(spec.height);
  // Global colour table present, colour resolution 8 bits, unsorted, size 2^bits.
  out.byte(0x80 | (7 << 4) | (bits - 1));
  // The background index: the transparent one when there is one.
  out.byte(Math.max(palette.transparentIndex, 0));
  out.byte(0); // square pixels
  const table = new Uint8Array(3 << bits);
  table.set(palette.rgb.subarray(0, Math.min(palette.rgb.length, table.length)));
  out.bytes(table);
  if (spec.loop) {
    out.bytes([0x21, 0xff, 11]);
    out.ascii("NETSCAPE2.0");
    out.bytes([3, 1]);
    out.u16(0); // 0 = loop forever
    out.byte(0);
  }
  for (const frame of spec.frames) {
    const t = frame.transparent ?? palette.transparentIndex;
    out.bytes([0x21, 0xf9, 4]);
    out.byte((frame.dispose << 2) | (t >= 0 ? 1 : 0));
    out.u16(frame.delay);
    out.byte(Math.max(t, 0));
    out.byte(0);
    const { x, y, w, h } = frame.box;
    out.byte(0x2c);
    out.u16(x);
    out.u16(y);
    out.u16(w);
    out.u16(h);
    out.byte(0); // no local colour table, not interlaced
    out.bytes(frame.data);
  }
  out.byte(0x3b);
  return out.result();
}
