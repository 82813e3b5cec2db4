// Email images: the animated GIF and the still PNG. satori and resvg run only
// when a look's atlas is built (cached); each image after that is layout
// arithmetic, byte copies in palette-index space and LZW of what changed.
import { splitRemaining, type TimeUnit } from "@tminus/core";
import { createLru, type Lru } from "./_lru";
import { parseHex, variantColors } from "./colors";
import { type FrameContent, frameContent, type LookText, lookText } from "./content";
import { invalid } from "./errors";
import { fontStack } from "./fonts";
import { type Atlas, buildAtlas, flatten, rasterise, toSvg } from "./gif/atlas";
import {
  type Canvas,
  changedRect,
  createCanvas,
  drawFrame,
  extract,
  redraw,
  union,
} from "./gif/composite";
import { encodeGif, type GifFrame } from "./gif/encode";
import { type Layout, placeCells, planLayout } from "./gif/layout";
import { type Box, frameElement, type PlacedCell, sceneSpec } from "./gif/scene";
import { IMAGE_LIMITS, type ImageInput, type ResolvedInput, resolveInput } from "./options";
import { encodePng } from "./png";

/** Decoded pixels: RGBA, 4 bytes per pixel, row by row. */
export interface RgbaImage {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Renders email images with its own bounded cache of rasterised looks. */
export interface ImageRenderer {
  /** An animated GIF: frame k shows the time `k` seconds after the request. */
  gif(input: ImageInput): Promise<Uint8Array>;
  /** A PNG of the first frame: the time at the request. */
  png(input: ImageInput): Promise<Uint8Array>;
  /** Frame `frame` (default 0) of the animation, composited from the atlas, as RGBA. */
  rgba(input: ImageInput & { frame?: number }): Promise<RgbaImage>;
  /**
   * The same frame drawn the slow, obvious way: satori and resvg over the whole
   * frame. For tests and benchmarks: the fast path must look exactly like this.
   */
  reference(input: ImageInput & { frame?: number }): Promise<RgbaImage>;
  /** How many rasterised looks the cache holds. */
  readonly cachedLooks: number;
  /** Forgets every rasterised look. */
  clear(): void;
}

/** Options of {@link createImageRenderer}. */
export interface ImageRendererOptions {
  /** Rasterised looks kept (each a few hundred KB at most). Default 64. */
  maxLooks?: number;
}

/** Frame display time: one second, in GIF's hundredths. */
const FRAME_DELAY = 100;

interface Prepared {
  input: ResolvedInput;
  text: LookText;
  atlas: Atlas;
  layout: Layout;
  contents: FrameContent[];
  placed: PlacedCell[][];
}

/**
 * A renderer with its own cache. Most code wants the shared one behind
 * {@link renderGif} and {@link renderPng}; a server may want several, or a bound.
 * @example
 * const images = createImageRenderer({ maxLooks: 16 });
 * const gif = await images.gif({ remainingSeconds: 3600, look: timer.look, ended: timer.ended });
 */
export function createImageRenderer(options: ImageRendererOptions = {}): ImageRenderer {
  const maxLooks = options.maxLooks ?? 64;
  // Promises, not atlases: concurrent first requests for a look share one build.
  const atlases: Lru<string, Promise<Atlas>> = createLru(maxLooks);
  const texts: Lru<string, LookText> = createLru(maxLooks * 4);

  function textOf(input: ResolvedInput): LookText {
    const key = `${input.lookKey}\u0000${input.endedText}`;
    let text = texts.get(key);
    if (!text) {
      text = lookText(input.look, input.endedText, fontStack(input.look.font));
      texts.set(key, text);
    }
    return text;
  }

  function atlasFor(input: ResolvedInput, text: LookText, digitPx: number): Promise<Atlas> {
    const key = [
      input.lookKey,
      input.endedText,
      input.width,
      input.height,
      input.scale,
      input.variant,
      digitPx,
    ].join("\u0000");
    let atlas = atlases.get(key);
    if (!atlas) {
      const spec = sceneSpec({
        width: input.width * input.scale,
        height: input.height * input.scale,
        scale: input.scale,
        colors: variantColors(input.look, input.variant),
        transparent: input.look.transparent,
        panel: input.look.panel,
        fonts: fontStack(input.look.font),
        digitPx,
        nominalPx: input.look.font_size * input.scale,
        endedPx: input.look.font_size * input.scale,
      });
      atlas = buildAtlas(spec, text);
      atlases.set(key, atlas);
      // A failed build must not stay cached: the next request tries again.
      atlas.catch(() => atlases.delete(key));
    }
    return atlas;
  }

  async function prepare(raw: ImageInput, frameCount?: number): Promise<Prepared> {
    const input = resolveInput(raw);
    const text = textOf(input);
    const count = frameCount ?? (input.running ? input.frames : 1);
    const contents: FrameContent[] = [];
    for (let k = 0; k < count; k++) {
      const content = frameContent(text, input.remaining - (input.running ? k : 0));
      contents.push(content);
      // The end is final: the animation stops on the ended look instead of looping back.
      if (content.ended) break;
    }
    const { look } = input;
    const units: TimeUnit[] = splitRemaining(1, {
      largestUnit: look.largest_unit,
      units: look.units,
    }).map((p) => p.unit);
    const first = contents[0]!;
    // The largest unit is the only unbounded one and never grows while counting down,
    // so the first frame's digit count holds for the whole animation.
    const capacity = units.map((_, i) =>
      i === 0 && !first.ended ? first.parts[0]!.digits.length : 2,
    );
    const plan = {
      units,
      capacity,
      labels: units.map((unit) => text.labelsByUnit.get(unit) ?? []),
      hasSeparator: text.separator !== "",
    };
    // Shrink to fit: a large font in a narrow image scales down instead of clipping.
    let digitPx = look.font_size * input.scale;
    let atlas = await atlasFor(input, text, digitPx);
    let layout = planLayout(atlas.spec, atlas.sizes, plan);
    for (let attempt = 0; !layout.fits && attempt < 4; attempt++) {
      const { content } = atlas.spec;
      const factor = Math.min(content.w / layout.rowW, content.h / layout.rowH);
      const next = Math.max(4, Math.floor(digitPx * factor * 0.98 * 2) / 2);
      if (next >= digitPx) break;
      digitPx = next;
      atlas = await atlasFor(input, text, digitPx);
      layout = planLayout(atlas.spec, atlas.sizes, plan);
    }
    const placed = contents.map((content) =>
      placeCells(layout, atlas.sizes, content, text.separator),
    );
    return { input, text, atlas, layout, contents, placed };
  }

  return {
    async gif(raw) {
      const p = await prepare(raw);
      const { atlas, placed, input } = p;
      const canvas = createCanvas(atlas.base);
      drawFrame(canvas, placed[0]!, atlas.cells);
      const frames: GifFrame[] = [
        {
          box: { x: 0, y: 0, w: canvas.w, h: canvas.h },
          pixels: canvas.pixels.slice(),
          delay: FRAME_DELAY,
          dispose: 1,
        },
      ];
      if (atlas.palette.transparentIndex >= 0) transparentFrames(p, canvas, frames);
      else opaqueFrames(p, canvas, frames);
      const last = p.contents[p.contents.length - 1]!;
      return encodeGif({
        width: canvas.w,
        height: canvas.h,
        palette: atlas.palette,
        loop: input.running && p.contents.length > 1 && !last.ended,
        frames,
      });
    },

    async png(raw) {
      const p = await prepare(raw, 1);
      const canvas = createCanvas(p.atlas.base);
      drawFrame(canvas, p.placed[0]!, p.atlas.cells);
      return encodePng(canvas, p.atlas.palette);
    },

    async rgba(raw) {
      const p = await prepare(raw, frameIndex(raw) + 1);
      const canvas = createCanvas(p.atlas.base);
      drawFrame(canvas, p.placed[Math.min(frameIndex(raw), p.placed.length - 1)]!, p.atlas.cells);
      const { rgb, transparentIndex } = p.atlas.palette;
      const out = new Uint8Array(canvas.w * canvas.h * 4);
      for (let i = 0; i < canvas.pixels.length; i++) {
        const idx = canvas.pixels[i]!;
        out.set(rgb.subarray(idx * 3, idx * 3 + 3), i * 4);
        out[i * 4 + 3] = idx === transparentIndex ? 0 : 255;
      }
      return { width: canvas.w, height: canvas.h, rgba: out };
    },

    async reference(raw) {
      const p = await prepare(raw, frameIndex(raw) + 1);
      const { spec } = p.atlas;
      const placed = p.placed[Math.min(frameIndex(raw), p.placed.length - 1)]!;
      const svg = await toSvg(frameElement(spec, placed), spec, spec.width);
      const raster = rasterise(svg);
      const flat = flatten(raster.pixels, parseHex(spec.colors.matte), spec.transparent);
      const out = new Uint8Array(flat.length * 4);
      for (let i = 0; i < flat.length; i++) {
        const c = flat[i]!;
        if (c < 0) continue; // transparent: all zero
        out[i * 4] = (c >> 16) & 255;
        out[i * 4 + 1] = (c >> 8) & 255;
        out[i * 4 + 2] = c & 255;
        out[i * 4 + 3] = 255;
      }
      return { width: raster.width, height: raster.height, rgba: out };
    },

    get cachedLooks() {
      return atlases.size;
    },
    clear() {
      atlases.clear();
      texts.clear();
    },
  };
}

/** The `frame` option of rgba() and reference(): which frame of the animation, 0..59. */
function frameIndex(raw: { frame?: number }): number {
  const frame = raw.frame ?? 0;
  if (!Number.isInteger(frame) || frame < 0 || frame >= IMAGE_LIMITS.maxFrames)
    throw invalid("frame", `must be an integer from 0 to ${IMAGE_LIMITS.maxFrames - 1}`);
  return frame;
}

/**
 * Opaque looks: each frame redraws and encodes only the rectangle whose cells
 * changed, left in place (disposal 1) for the next. A frame where nothing
 * changed still gets its second: a one-pixel frame repainting what is there.
 */
function opaqueFrames(p: Prepared, canvas: Canvas, frames: GifFrame[]): void {
  for (let k = 1; k < p.placed.length; k++) {
    const rect = changedRect(p.placed[k - 1]!, p.placed[k]!, p.atlas.cells, canvas) ?? NO_CHANGE;
    redraw(canvas, p.placed[k]!, p.atlas.cells, rect);
    frames.push({ box: rect, pixels: extract(canvas, rect), delay: FRAME_DELAY, dispose: 1 });
  }
}

/** The box of a frame that changes nothing: one pixel, repainted as it is. */
const NO_CHANGE = { x: 0, y: 0, w: 1, h: 1 };

/**
 * Transparent looks: a drawn pixel can only turn transparent again when the
 * frame that covers it is cleared afterwards (disposal 2), and a cleared
 * rectangle must then be redrawn whole by the next frame. So frame k covers
 * every change up to frame k + 1 (the changes of the next step included, so
 * what turns transparent then is cleared after frame k), and the rectangles
 * only grow. Frame 1 sits on frame 0, which is never cleared (Outlook shows
 * frame 0 alone, so it must be whole): where frame 0 had ink and frame 1 has
 * none, frame 1 paints the matte colour, which the matte is chosen to hide.
 */
function transparentFrames(p: Prepared, canvas: Canvas, frames: GifFrame[]): void {
  const n = p.placed.length;
  const changes: Array<Box | null> = [null];
  for (let k = 1; k < n; k++)
    changes.push(changedRect(p.placed[k - 1]!, p.placed[k]!, p.atlas.cells, canvas));
  const t = p.atlas.palette.transparentIndex;
  const [mr, mg, mb] = parseHex(p.atlas.spec.colors.matte);
  const matte = p.atlas.indexOf((mr << 16) | (mg << 8) | mb);
  let area: Box | null = null;
  for (let k = 1; k < n; k++) {
    const before = area;
    area = union(union(area, changes[k]!), changes[k + 1] ?? null);
    if (!area) {
      // Nothing has changed yet: the second still gets its frame, a one-pixel repaint.
      frames.push({
        box: NO_CHANGE,
        pixels: extract(canvas, NO_CHANGE),
        delay: FRAME_DELAY,
        dispose: 1,
      });
      continue;
    }
    const first = before === null ? extract(canvas, area) : null;
    redraw(canvas, p.placed[k]!, p.atlas.cells, area);
    const pixels = extract(canvas, area);
    // The first cleared-area frame lies on frame 0's pixels, which nothing cleared.
    if (first)
      for (let i = 0; i < pixels.length; i++)
        if (pixels[i] === t && first[i] !== t) pixels[i] = matte;
    frames.push({ box: area, pixels, delay: FRAME_DELAY, dispose: 2 });
  }
}

const shared = createImageRenderer();

/**
 * An animated GIF of a countdown: up to 60 one-second frames, the first showing
 * the exact time left at the request, looping; after the end, the ended look.
 * @example
 * const status = computeStatus({ definition, clock }, Date.now());
 * const gif = await renderGif({
 *   remainingSeconds: status.remaining.total_seconds,
 *   running: status.state === "running",
 *   look: definition.look,
 *   ended: definition.ended,
 * });
 */
export function renderGif(input: ImageInput): Promise<Uint8Array> {
  return shared.gif(input);
}

/**
 * A still PNG of the time left at the request (the GIF's first frame, same palette).
 * @example const png = await renderPng({ remainingSeconds: 90, look: { theme: "dark" } });
 */
export function renderPng(input: ImageInput): Promise<Uint8Array> {
  return shared.png(input);
}
