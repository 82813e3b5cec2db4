import { writeFileSync } from "node:fs";
import { createImageRenderer } from "@tminus/render";
import { it } from "vitest";
import { compare, dhms } from "./helpers";
import { encodePng } from "../src/png";

const images = createImageRenderer();
import { deflateSync } from "node:zlib";
function crc32(buf: Uint8Array): number { let c, crc = 0xffffffff; for (let n = 0; n < buf.length; n++) { c = (crc ^ buf[n]!) & 0xff; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; crc = (crc >>> 8) ^ c; } return (crc ^ 0xffffffff) >>> 0; }
function chunk(type: string, data: Buffer): Buffer { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type), data]); const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td)); return Buffer.concat([len, td, crc]); }
export function realPng(p: { width: number; height: number; rgba: Uint8Array }): Buffer {
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(p.width, 0); ihdr.writeUInt32BE(p.height, 4); ihdr[8] = 8; ihdr[9] = 6;
  const raw = Buffer.alloc((p.width * 4 + 1) * p.height);
  for (let y = 0; y < p.height; y++) { raw[y * (p.width * 4 + 1)] = 0; Buffer.from(p.rgba.buffer, p.rgba.byteOffset + y * p.width * 4, p.width * 4).copy(raw, y * (p.width * 4 + 1) + 1); }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}
function toPng(p: { width: number; height: number; rgba: Uint8Array }): Uint8Array {
  return realPng(p);
  // RGBA to a palette-less PNG via sharp-free route: write as PPM instead
  const header = Buffer.from(`P6\n${p.width} ${p.height}\n255\n`);
  const body = Buffer.alloc(p.width * p.height * 3);
  for (let i = 0; i < p.width * p.height; i++) {
    body[i * 3] = p.rgba[i * 4]!; body[i * 3 + 1] = p.rgba[i * 4 + 1]!; body[i * 3 + 2] = p.rgba[i * 4 + 2]!;
  }
  return Buffer.concat([header, body]);
}
void encodePng;
const cases = JSON.parse(process.env.DBG ?? "[]");
it("dumps", async () => {
  for (const [name, input] of cases) {
    const fast = await images.rgba(input);
    const slow = await images.reference(input);
    writeFileSync(`/tmp/i39s/${name}-fast.png`, toPng(fast));
    writeFileSync(`/tmp/i39s/${name}-slow.png`, toPng(slow));
    const d = compare(fast, slow);
    // where do they differ
    let x0 = 1e9, y0 = 1e9, x1 = -1, y1 = -1;
    for (let i = 0; i < fast.rgba.length / 4; i++) {
      let dd = 0;
      for (let c = 0; c < 3; c++) dd = Math.max(dd, Math.abs(fast.rgba[i * 4 + c]! - slow.rgba[i * 4 + c]!));
      if (dd > 24) { const x = i % fast.width, y = Math.floor(i / fast.width); x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
    }
    console.log(name, JSON.stringify(d), x0, y0, x1, y1);
  }
  void dhms;
}, 600000);
