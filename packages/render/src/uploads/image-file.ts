// An uploaded image (PNG or JPEG) checked by decoding it whole, after its declared size was
// checked from its header: a 60-byte PNG may claim 100,000 x 100,000 pixels (an "image bomb"),
// and such a file is refused before a single pixel is allocated.
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { FileProblem, malformed } from "./file-problem";

/** The formats images are uploaded in. */
export type ImageFormat = "png" | "jpeg";

/** Bounds of an uploaded image's declared size. A 2x email image is at most 2,400 px wide. */
export const IMAGE_UPLOAD_LIMITS = Object.freeze({
  /** Pixels across or down, each. */
  maxSide: 4096,
  /** Pixels in all (decoded, four bytes each: 64 MiB at most). */
  maxPixels: 4096 * 4096,
});

/** A decoded image: its format, size and RGBA pixels (4 bytes each, row by row). */
export interface ImageFile {
  format: ImageFormat;
  width: number;
  height: number;
  rgba: Uint8Array;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Decodes an uploaded PNG or JPEG. Throws a {@link FileProblem}: `unsupported_format` for any
 * other file (naming fonts, GIF and WebP when it sees them), `too_large` when the header
 * declares more than {@link IMAGE_UPLOAD_LIMITS}, `malformed` when it does not decode (cut
 * short, damaged).
 * @example const { width, height } = readImage(bytes); // throws FileProblem
 */
export function readImage(bytes: Uint8Array): ImageFile {
  const format = imageFormat(bytes);
  const { width, height } = format === "png" ? pngSize(bytes) : jpegSize(bytes);
  checkSize(width, height);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === "png") {
    let png: { width: number; height: number; data: Buffer };
    try {
      png = PNG.sync.read(buffer, { checkCRC: true });
    } catch (error) {
      throw malformed(`the PNG image does not decode (${describe(error)})`);
    }
    return { format, width: png.width, height: png.height, rgba: png.data };
  }
  // A JPEG decoder fills in what a cut-short file lacks; the end marker says it is whole.
  if (!endsWithEoi(bytes)) throw malformed("the JPEG image is cut short (no end marker)");
  let decoded: { width: number; height: number; data: Uint8Array };
  try {
    decoded = jpeg.decode(buffer, {
      useTArray: true,
      formatAsRGBA: true,
      tolerantDecoding: false,
      maxResolutionInMP: Math.ceil(IMAGE_UPLOAD_LIMITS.maxPixels / 1_000_000),
      maxMemoryUsageInMB: 256,
    });
  } catch (error) {
    throw malformed(`the JPEG image does not decode (${describe(error)})`);
  }
  return { format, width: decoded.width, height: decoded.height, rgba: decoded.data };
}

function imageFormat(bytes: Uint8Array): ImageFormat {
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const head = String.fromCharCode(...bytes.subarray(0, 12));
  const what = head.startsWith("GIF8")
    ? "a GIF image"
    : head.startsWith("RIFF") && head.slice(8, 12) === "WEBP"
      ? "a WebP image"
      : ["\u0000\u0001\u0000\u0000", "OTTO", "true", "wOFF", "wOF2", "ttcf"].includes(
            head.slice(0, 4),
          )
        ? "a font, not an image"
        : "not a PNG or JPEG image";
  throw new FileProblem("unsupported_format", `the file is ${what}: upload a PNG or JPEG image`);
}

function checkSize(width: number, height: number): void {
  const L = IMAGE_UPLOAD_LIMITS;
  if (width === 0 || height === 0) throw malformed("the image declares no pixels");
  if (width > L.maxSide || height > L.maxSide || width * height > L.maxPixels)
    throw new FileProblem(
      "too_large",
      `the image is ${width} x ${height} pixels: at most ${L.maxSide} pixels across and down, ` +
        `${L.maxPixels.toLocaleString("en")} in all`,
    );
}

/** Width and height from the IHDR chunk, which must come first. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.byteLength < 33) throw malformed("the PNG image is cut short");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR")
    throw malformed("the PNG image has no header chunk (IHDR) first");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

// Start-of-frame markers (baseline, extended, progressive, lossless; not DHT, JPG, DAC).
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Width and height from the first start-of-frame segment, walking segments from the start. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  while (at + 4 <= bytes.byteLength) {
    if (bytes[at] !== 0xff)
      throw malformed("the JPEG image is damaged (a segment is out of place)");
    const marker = bytes[at + 1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (SOF.has(marker)) {
      if (at + 9 > bytes.byteLength) break;
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    if (marker === 0xda || marker === 0xd9) break; // image data or end, and no frame header yet
    at += 2 + length;
  }
  throw malformed("the JPEG image has no frame header (cut short or damaged)");
}

/** Whether the file ends with EOI (FF D9), allowing a little padding after it. */
function endsWithEoi(bytes: Uint8Array): boolean {
  for (let i = bytes.byteLength - 2; i >= Math.max(0, bytes.byteLength - 64); i--)
    if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
  return false;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\s+/g, " ").slice(0, 120) : "unreadable";
}
