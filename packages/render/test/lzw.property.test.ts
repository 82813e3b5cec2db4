import { createRequire } from "node:module";
import fc from "fast-check";
import omggif from "omggif";
import { describe, expect, it } from "vitest";
import {
  lzwAppend,
  lzwBegin,
  lzwClear,
  lzwEncode,
  lzwEnd,
  lzwFlush,
  lzwHeadPiece,
  lzwImageData,
  lzwSegment,
  lzwTailPiece,
} from "../src/gif/lzw";

// gifenc's encoder, the one the renderer used before: an independent greedy LZW.
const { GIFEncoder } = createRequire(import.meta.url)("gifenc") as {
  GIFEncoder(options: { auto: boolean }): {
    writeFrame(index: Uint8Array, w: number, h: number, options: object): void;
    bytesView(): Uint8Array;
  };
};

/** A one-frame GIF around image data, with a palette that tells every index apart. */
function decode(data: Uint8Array, width: number, height: number, bits: number): Uint8Array {
  const colors = 1 << bits;
  const table = new Uint8Array(colors * 3);
  for (let i = 0; i < colors; i++) table.set([i, 255 - i, i ^ 0x5a], i * 3);
  const head = Uint8Array.of(
    ...Buffer.from("GIF89a"),
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    0x80 | (7 << 4) | (bits - 1),
    0,
    0,
  );
  const descriptor = Uint8Array.of(
    0x2c,
    0,
    0,
    0,
    0,
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    0,
  );
  const gif = Buffer.concat([head, table, descriptor, data, Uint8Array.of(0x3b)]);
  const reader = new omggif.GifReader(gif);
  const rgba = new Uint8Array(width * height * 4);
  reader.decodeAndBlitFrameRGBA(0, rgba);
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = rgba[i * 4]!;
  return out;
}

/** The code bytes of image data, without sub-block lengths (gifenc cuts blocks at 254). */
function codeBytes(data: Uint8Array, from = 1): number[] {
  const out: number[] = [];
  for (let at = from; data[at] !== 0; at += data[at]! + 1)
    out.push(...data.subarray(at + 1, at + 1 + data[at]!));
  return out;
}

// Indices as images have them: long runs of a few values, broken by noise.
const image = fc
  .record({
    bits: fc.integer({ min: 1, max: 8 }),
    width: fc.integer({ min: 1, max: 300 }),
    height: fc.integer({ min: 1, max: 120 }),
    runs: fc.array(fc.tuple(fc.nat(255), fc.integer({ min: 1, max: 2000 })), {
      minLength: 1,
      maxLength: 40,
    }),
    noise: fc.double({ min: 0, max: 0.5, noNaN: true }),
    seed: fc.nat(),
  })
  .map(({ bits, width, height, runs, noise, seed }) => {
    const n = width * height;
    const pixels = new Uint8Array(n);
    let at = 0;
    let r = 0;
    let state = seed || 1;
    const random = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    while (at < n) {
      const [value, length] = runs[r++ % runs.length]!;
      for (let i = 0; i < length && at < n; i++, at++)
        pixels[at] = (random() < noise ? Math.floor(random() * 256) : value) % (1 << bits);
    }
    return { bits, width, height, pixels };
  });

describe("the LZW encoder", () => {
  it("decodes (omggif) to its input, in the very codes gifenc writes", () => {
    fc.assert(
      fc.property(image, ({ bits, width, height, pixels }) => {
        const data = lzwEncode(pixels, bits);
        expect(Buffer.from(decode(data, width, height, bits)).equals(Buffer.from(pixels))).toBe(
          true,
        );
        const gifenc = GIFEncoder({ auto: false });
        gifenc.writeFrame(pixels, width, height, { colorDepth: Math.max(2, bits) });
        // gifenc's frame: 8 bytes of graphic control, 10 of descriptor, then the code size.
        expect(codeBytes(data)).toEqual(codeBytes(gifenc.bytesView(), 19));
      }),
      { numRuns: 150 },
    );
  });

  it("decodes to its input when built from kept head and tail pieces around a band", () => {
    fc.assert(
      fc.property(image, fc.nat(), fc.nat(), ({ bits, width, height, pixels }, a, b) => {
        const top = a % (height + 1);
        const bottom = top + (b % (height - top + 1));
        const w = width;
        const head = top > 0 ? lzwHeadPiece(pixels, 0, top * w, bits) : null;
        const tail = bottom < height ? lzwTailPiece(pixels, bottom * w, height * w, bits) : null;
        lzwBegin(bits);
        if (head) lzwAppend(head);
        lzwSegment(pixels, top * w, bottom * w);
        if (tail) {
          lzwClear();
          lzwAppend(tail);
          lzwFlush();
        } else {
          lzwEnd();
        }
        const data = lzwImageData();
        expect(Buffer.from(decode(data, width, height, bits)).equals(Buffer.from(pixels))).toBe(
          true,
        );
      }),
      { numRuns: 150 },
    );
  });
});
