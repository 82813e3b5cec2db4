// The dashboard's icon, drawn here rather than shipped as a binary file: a 32x32 ICO (one
// 32-bit bitmap), an accent-blue dial with white hands. Served at `<dashboard>/assets/
// favicon.ico`, which every page links, and at `/favicon.ico`, where browsers look by default.

const SIZE = 32;
const BLUE = [0xd8, 0x4e, 0x1d, 0xff]; // #1d4ed8 as B, G, R, A
const WHITE = [0xff, 0xff, 0xff, 0xff];
const CLEAR = [0, 0, 0, 0];

/** The colour of the pixel at column `x`, row `y` (row 0 at the top). */
function pixel(x: number, y: number): readonly number[] {
  const dx = x + 0.5 - SIZE / 2;
  const dy = y + 0.5 - SIZE / 2;
  const d = Math.hypot(dx, dy);
  if (d > 15.5) return CLEAR;
  if (d > 10 && d < 12.5) return WHITE;
  const minuteHand = Math.abs(dx) < 1.1 && dy < 0.5 && dy > -9;
  const hourHand = Math.abs(dy) < 1.1 && dx > -0.5 && dx < 6.5;
  return minuteHand || hourHand ? WHITE : BLUE;
}

function drawIcon(): Uint8Array {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // 1 bit per pixel, rows padded to 4 bytes: all 0 (alpha decides)
  const image = 40 + pixels + mask;
  const out = new Uint8Array(6 + 16 + image);
  const view = new DataView(out.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  out[6] = SIZE;
  out[7] = SIZE;
  view.setUint16(10, 1, true); // planes
  view.setUint16(12, 32, true); // bits per pixel
  view.setUint32(14, image, true);
  view.setUint32(18, 22, true); // offset of the image
  view.setUint32(22, 40, true); // BITMAPINFOHEADER
  view.setInt32(26, SIZE, true);
  view.setInt32(30, SIZE * 2, true); // colour bitmap and mask, stacked
  view.setUint16(34, 1, true);
  view.setUint16(36, 32, true);
  view.setUint32(42, pixels + mask, true);
  for (let row = 0; row < SIZE; row++) {
    for (let x = 0; x < SIZE; x++) {
      // Bitmaps are stored bottom row first.
      out.set(pixel(x, SIZE - 1 - row), 62 + (row * SIZE + x) * 4);
    }
  }
  return out;
}

/** The icon's bytes (image/x-icon). */
export const FAVICON = drawIcon();
