// WOFF 1.0 unpacked to the sfnt it wraps, with every size checked before anything is
// inflated: an uploaded file may declare tables that do not fit, or that inflate to far more
// than the limit (a "zip bomb"). Bundled fonts go through the same code.
import { inflateSync } from "node:zlib";
import { FileProblem, malformed } from "./file-problem";

const WOFF = 0x774f4646; // "wOFF"
const WOFF2 = 0x774f4632; // "wOF2"

/** Most bytes a WOFF file may unpack to: a large CJK font is some 20 MB. */
export const WOFF_UNPACKED_MAX = 32 * 1024 * 1024;

/** The container a font file is in, from its first bytes. */
export function woffKind(bytes: Uint8Array): "woff" | "woff2" | null {
  if (bytes.byteLength < 4) return null;
  const tag = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  return tag === WOFF ? "woff" : tag === WOFF2 ? "woff2" : null;
}

/**
 * A WOFF 1.0 file as the TrueType/OpenType file it wraps: the same tables, zlib-inflated
 * where they were compressed, each at a 4-byte boundary. Throws a FileProblem (`malformed`, or
 * `too_large` past {@link WOFF_UNPACKED_MAX}) for a file that does not read.
 */
export function unpackWoff(woff: Uint8Array, maxUnpacked = WOFF_UNPACKED_MAX): Buffer {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (woff.byteLength < 44 || view.getUint32(0) !== WOFF) throw malformed("not a WOFF file");
  if (view.getUint32(8) !== woff.byteLength)
    throw malformed("the WOFF file is not as long as its header says (cut short?)");
  const flavor = view.getUint32(4);
  const numTables = view.getUint16(12);
  if (numTables === 0 || numTables > 512)
    throw malformed("the WOFF file's table count is not sane");
  if (44 + numTables * 20 > woff.byteLength) throw malformed("the WOFF table list is cut short");
  let unpacked = 12 + 16 * numTables;
  const entries: Array<{
    tag: number;
    checksum: number;
    offset: number;
    comp: number;
    orig: number;
  }> = [];
  for (let i = 0; i < numTables; i++) {
    const at = 44 + i * 20;
    const entry = {
      tag: view.getUint32(at),
      offset: view.getUint32(at + 4),
      comp: view.getUint32(at + 8),
      orig: view.getUint32(at + 12),
      checksum: view.getUint32(at + 16),
    };
    if (entry.offset + entry.comp > woff.byteLength)
      throw malformed("a WOFF table runs past the end of the file (cut short?)");
    if (entry.comp > entry.orig) throw malformed("a WOFF table is larger packed than unpacked");
    unpacked += (entry.orig + 3) & ~3;
    entries.push(entry);
  }
  if (unpacked > maxUnpacked)
    throw new FileProblem(
      "too_large",
      `the WOFF file unpacks to ${unpacked} bytes, more than ${maxUnpacked}`,
    );
  const out = Buffer.alloc(unpacked);
  let entrySelector = 0;
  while (1 << (entrySelector + 1) <= numTables) entrySelector++;
  const searchRange = (1 << entrySelector) * 16;
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange, 10);
  let offset = 12 + 16 * numTables;
  entries.forEach((t, i) => {
    const raw = woff.subarray(t.offset, t.offset + t.comp);
    let data: Uint8Array = raw;
    if (t.comp < t.orig) {
      try {
        data = inflateSync(raw, { maxOutputLength: t.orig });
      } catch {
        throw malformed("a WOFF table does not inflate (damaged or cut short)");
      }
      if (data.byteLength !== t.orig) throw malformed("a WOFF table inflates to the wrong size");
    }
    const at = 12 + i * 16;
    out.writeUInt32BE(t.tag, at);
    out.writeUInt32BE(t.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(t.orig, at + 12);
    out.set(data, offset);
    offset += (t.orig + 3) & ~3;
  });
  return out;
}
