// Uploaded images: PNG and JPEG decoded whole to be taken, their declared size checked first.
import { deflateSync } from "node:zlib";
import fc from "fast-check";
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { FileProblem, IMAGE_UPLOAD_LIMITS, readImage, renderPng } from "../src/index";
import { problemOf } from "./helpers";

/** An RGBA gradient, so every pixel is checked against what was encoded. */
function gradient(width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([i % 256, (i >> 3) % 256, 200, 255], i * 4);
  return rgba;
}

function pngOf(width: number, height: number): Uint8Array {
  const png = new PNG({ width, height });
  png.data = Buffer.from(gradient(width, height));
  return PNG.sync.write(png);
}

function jpegOf(width: number, height: number): Uint8Array {
  return jpeg.encode({ width, height, data: gradient(width, height) }, 90).data;
}

/** A PNG whose header claims `width` x `height`, with one tiny compressed row behind it. */
function bomb(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "latin1");
    out.set(data, 8);
    return out; // no CRC: the size check comes first
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(1024))),
  ]);
}

describe("reading an uploaded image", () => {
  it("decodes PNG and JPEG whole, with their size", () => {
    const png = readImage(pngOf(300, 120));
    expect(png).toMatchObject({ format: "png", width: 300, height: 120 });
    expect(Buffer.from(png.rgba).equals(Buffer.from(gradient(300, 120)))).toBe(true);
    const jpg = readImage(jpegOf(64, 48));
    expect(jpg).toMatchObject({ format: "jpeg", width: 64, height: 48 });
    expect(jpg.rgba.length).toBe(64 * 48 * 4);
  });

  it("refuses each bad file with one reason that says what it is", async () => {
    expect(problemOf(() => readImage(Buffer.from("GIF89a\x01\x00\x01\x00")))).toMatchObject({
      reason: "unsupported_format",
      message: "the file is a GIF image: upload a PNG or JPEG image",
    });
    expect(problemOf(() => readImage(Buffer.from("wOFF0000")))).toMatchObject({
      reason: "unsupported_format",
      message: expect.stringContaining("a font, not an image"),
    });
    const png = pngOf(200, 100);
    expect(problemOf(() => readImage(png.subarray(0, png.length - 40)))).toMatchObject({
      reason: "malformed",
    });
    const jpg = jpegOf(200, 100);
    expect(problemOf(() => readImage(jpg.subarray(0, jpg.length / 2)))).toMatchObject({
      reason: "malformed",
      message: expect.stringContaining("cut short"),
    });
    // Our own PNGs decode too (palette, tRNS).
    expect(readImage(await renderPng({ remainingSeconds: 5 }))).toMatchObject({ format: "png" });
  });

  it("refuses an image bomb by its header, before decoding anything", () => {
    const started = performance.now();
    expect(problemOf(() => readImage(bomb(100_000, 100_000)))).toMatchObject({
      reason: "too_large",
      message: expect.stringContaining("100000 x 100000 pixels"),
    });
    const side = IMAGE_UPLOAD_LIMITS.maxSide;
    expect(problemOf(() => readImage(bomb(side + 1, 10)))).toMatchObject({ reason: "too_large" });
    // Within each side, over the pixel count is refused too when the limits differ.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("property: a cut or damaged image is a FileProblem or decodes, never another error", () => {
    const files = [pngOf(40, 30), jpegOf(40, 30)];
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        (file, cut, flips) => {
          const bytes = file.slice(0, file.length - (cut % file.length));
          for (const [at, value] of flips) if (bytes.length > 0) bytes[at % bytes.length] = value;
          try {
            readImage(bytes);
          } catch (error) {
            expect(error).toBeInstanceOf(FileProblem);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
