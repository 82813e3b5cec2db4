// A frame drawn over the one before it (delta.ts): whatever it chose (plain or with the
// unchanged pixels transparent, cropped), omggif decoding the two frames must show `after`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deltaFrame } from "../src/gif/delta";
import { encodeGif } from "../src/gif/encode";
import { lzwEncode } from "../src/gif/lzw";
import { decodeGif } from "./helpers";

interface Case {
  bits: number;
  w: number;
  h: number;
  rect: { x: number; y: number; w: number; h: number };
  before: Uint8Array;
  after: Uint8Array;
}

/** A palette that tells every index apart: red is the index. */
function palette(bits: number) {
  const size = 1 << bits;
  const rgb = new Uint8Array(size * 3);
  for (let i = 0; i < size; i++) rgb.set([i, 255 - i, i ^ 0x5a], i * 3);
  return { rgb, size, transparentIndex: -1, bits };
}

const cut = (pixels: Uint8Array, w: number, r: Case["rect"]) => {
  const out = new Uint8Array(r.w * r.h);
  for (let y = 0; y < r.h; y++)
    out.set(pixels.subarray((r.y + y) * w + r.x, (r.y + y) * w + r.x + r.w), y * r.w);
  return out;
};

/** Frame 0 is `before` whole, frame 1 the delta frame; returns frame 1 as decoded, by index. */
function decodedAfter(c: Case): { shown: Uint8Array; transparent: number; box: Case["rect"] } {
  const delta = deltaFrame(cut(c.before, c.w, c.rect), cut(c.after, c.w, c.rect), c.rect, c.bits);
  const gif = encodeGif({
    width: c.w,
    height: c.h,
    palette: palette(c.bits),
    loop: true,
    frames: [
      {
        box: { x: 0, y: 0, w: c.w, h: c.h },
        data: lzwEncode(c.before, c.bits),
        delay: 100,
        dispose: 1,
      },
      {
        box: delta.box,
        data: delta.data,
        delay: 100,
        dispose: 1,
        ...(delta.transparent >= 0 ? { transparent: delta.transparent } : {}),
      },
    ],
  });
  const decoded = decodeGif(gif);
  const rgba = decoded.frames[1]!.rgba;
  const shown = new Uint8Array(c.w * c.h);
  for (let i = 0; i < shown.length; i++) shown[i] = rgba[i * 4]!;
  return { shown, transparent: delta.transparent, box: delta.box };
}

// Canvases whose rect changes in some pixels: `after` is `before` with some of them redrawn.
const cases: fc.Arbitrary<Case> = fc
  .record({
    bits: fc.integer({ min: 1, max: 8 }),
    w: fc.integer({ min: 1, max: 24 }),
    h: fc.integer({ min: 1, max: 16 }),
  })
  .chain(({ bits, w, h }) =>
    fc
      .record({
        x: fc.integer({ min: 0, max: w - 1 }),
        y: fc.integer({ min: 0, max: h - 1 }),
      })
      .chain(({ x, y }) =>
        fc.record({
          bits: fc.constant(bits),
          w: fc.constant(w),
          h: fc.constant(h),
          rect: fc.record({
            x: fc.constant(x),
            y: fc.constant(y),
            w: fc.integer({ min: 1, max: w - x }),
            h: fc.integer({ min: 1, max: h - y }),
          }),
          before: fc.uint8Array({ minLength: w * h, maxLength: w * h, max: (1 << bits) - 1 }),
          redraw: fc.array(fc.option(fc.integer({ min: 0, max: (1 << bits) - 1 }), { freq: 2 }), {
            minLength: w * h,
            maxLength: w * h,
          }),
        }),
      )
      .map(({ redraw, ...c }) => {
        const after = c.before.slice();
        for (let i = 0; i < after.length; i++) {
          const px = i % c.w;
          const py = Math.floor(i / c.w);
          const inside =
            px >= c.rect.x &&
            px < c.rect.x + c.rect.w &&
            py >= c.rect.y &&
            py < c.rect.y + c.rect.h;
          if (inside && redraw[i] !== null) after[i] = redraw[i]!;
        }
        return { ...c, after };
      }),
  );

describe("a frame drawn over the one before", () => {
  it("decodes to the new picture, inside the changed pixels' box", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const { shown, box } = decodedAfter(c);
        expect(Buffer.from(shown).equals(Buffer.from(c.after))).toBe(true);
        // The box holds every changed pixel and starts and ends on one (or is one pixel).
        let changed = 0;
        for (let i = 0; i < c.after.length; i++) if (c.after[i] !== c.before[i]) changed++;
        if (changed === 0) expect([box.w, box.h]).toEqual([1, 1]);
        else expect(box.w * box.h).toBeLessThanOrEqual(c.rect.w * c.rect.h);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves unchanged pixels transparent when that encodes smaller", () => {
    // A 64x32 rect where one column of pixels changes: a few runs of transparent beat
    // repainting a textured box.
    const w = 64;
    const h = 32;
    const before = new Uint8Array(w * h);
    for (let i = 0; i < before.length; i++) before[i] = (i * 7 + (i >> 3)) % 13;
    const after = before.slice();
    for (let y = 0; y < h; y++) after[y * w + 40] = 14;
    after[5] = 15;
    const c: Case = { bits: 4, w, h, rect: { x: 0, y: 0, w, h }, before, after };
    const { shown, transparent, box } = decodedAfter(c);
    expect(Buffer.from(shown).equals(Buffer.from(after))).toBe(true);
    expect(transparent).toBe(0);
    expect(box).toEqual({ x: 5, y: 0, w: 36, h: 32 });
  });

  it("paints plainly when every index of the table changes in", () => {
    const w = 16;
    const h = 16;
    const before = new Uint8Array(w * h).fill(0);
    const after = new Uint8Array(w * h);
    for (let i = 0; i < after.length; i++) after[i] = (i + 1) & 255;
    before[255] = 1; // so index 0 is drawn too, where it was 1
    const c: Case = { bits: 8, w, h, rect: { x: 0, y: 0, w, h }, before, after };
    const { shown, transparent } = decodedAfter(c);
    expect(transparent).toBe(-1);
    expect(Buffer.from(shown).equals(Buffer.from(after))).toBe(true);
  });
});
