// A font cut down to the characters a look draws, by HarfBuzz's subsetter (harfbuzzjs'
// hb-subset WebAssembly build, read from the package: nothing is fetched). A subset keeps the
// outlines, advances and kerning of the glyphs it keeps, so text drawn with it looks exactly
// as with the whole font, while the renderer parses and the browser downloads a few kilobytes
// instead of up to 2 MB.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { malformed } from "./file-problem";

/** The C functions of hb-subset this module calls (pointers are numbers in wasm memory). */
interface HbSubset {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(bytes: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_or_fail(face: number, input: number): number;
}

const require = createRequire(import.meta.url);
const MEMORY_MODE_WRITABLE = 2;
let loading: Promise<HbSubset> | undefined;

/** Compiles the subsetter once per thread (about 0.7 MB of wasm), on first use. */
function subsetter(): Promise<HbSubset> {
  loading ??= WebAssembly.instantiate(
    readFileSync(require.resolve("harfbuzzjs/dist/harfbuzz-subset.wasm")),
  ).then(({ instance }) => {
    const hb = instance.exports as unknown as HbSubset;
    hb._initialize();
    return hb;
  });
  return loading;
}

/**
 * The glyphs of `text` (and the font's fallback glyph) of an sfnt (TTF or OTF; unpack WOFF
 * first), as a TTF or OTF file of the same flavour. Characters the font lacks are left out.
 * @example const small = await subsetFont(font.sfnt, "0123456789:DaysHours");
 */
export async function subsetFont(sfnt: Uint8Array, text: string): Promise<Uint8Array> {
  const hb = await subsetter();
  const input = hb.hb_subset_input_create_or_fail();
  if (input === 0) throw new Error("hb-subset: out of memory");
  const ptr = hb.malloc(sfnt.byteLength);
  let face = 0;
  let result = 0;
  try {
    // The memory may grow with any call: a fresh view every time.
    new Uint8Array(hb.memory.buffer).set(sfnt, ptr);
    const blob = hb.hb_blob_create(ptr, sfnt.byteLength, MEMORY_MODE_WRITABLE, 0, 0);
    face = hb.hb_face_create(blob, 0);
    hb.hb_blob_destroy(blob);
    const unicodes = hb.hb_subset_input_unicode_set(input);
    for (const ch of new Set(text)) hb.hb_set_add(unicodes, ch.codePointAt(0)!);
    result = hb.hb_subset_or_fail(face, input);
    if (result === 0) throw malformed("the font could not be cut down to the characters it draws");
    const out = hb.hb_face_reference_blob(result);
    const at = hb.hb_blob_get_data(out, 0);
    const length = hb.hb_blob_get_length(out);
    const bytes = new Uint8Array(hb.memory.buffer, at, length).slice();
    hb.hb_blob_destroy(out);
    return bytes;
  } finally {
    if (result !== 0) hb.hb_face_destroy(result);
    if (face !== 0) hb.hb_face_destroy(face);
    hb.hb_subset_input_destroy(input);
    hb.free(ptr);
  }
}
