// omggif ships no types; this is the slice of its reader the tests use.
declare module "omggif" {
  export interface GifFrameInfo {
    x: number;
    y: number;
    width: number;
    height: number;
    delay: number;
    disposal: number;
    transparent_index: number | null;
    has_local_palette: boolean;
    palette_offset: number | null;
    palette_size: number | null;
    interlaced: boolean;
  }
  export class GifReader {
    constructor(buffer: Uint8Array);
    width: number;
    height: number;
    numFrames(): number;
    loopCount(): number | null;
    frameInfo(index: number): GifFrameInfo;
    decodeAndBlitFrameRGBA(index: number, pixels: Uint8Array): void;
  }
  const omggif: { GifReader: typeof GifReader };
  export default omggif;
}
