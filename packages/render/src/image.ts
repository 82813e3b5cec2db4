// Email images: the animated GIF and the still PNG. satori and resvg run only
// when a look's atlas is built (cached); each image after that is layout
// arithmetic, byte copies in palette-index space and LZW of what changed.
import { type Look, splitRemaining, type TimeUnit, UNIT_SECONDS } from "@tminus/core";
import { type ByteLru, createByteLru, createLru, type Lru } from "./_lru";
import { parseHex, type Variant, variantColors } from "./colors";
import { drawnSeparator, drawnText, frameContent, type LookText, lookText } from "./content";
import { invalid } from "./errors";
import { type FontStack, fontStack } from "./fonts";
import { animationFrames, type FrameCache, type PlacedFrames } from "./gif/animate";
import { type Atlas, buildAtlas, flatten, rasterise, toSvg } from "./gif/atlas";
import { drawFrame, releaseScratch, scratchCanvas } from "./gif/composite";
import { encodeGif } from "./gif/encode";
import { type Layout, placeCells, planLayout, type RowPlan, SHAPED } from "./gif/layout";
import {
  type BackgroundSpec,
  frameElement,
  type PlacedCell,
  sceneSpec,
  type WordsInput,
} from "./gif/scene";
import { IMAGE_LIMITS, type ImageInput, type ResolvedInput, resolveInput } from "./options";
import { encodePng } from "./png";
import { FileProblem } from "./uploads/file-problem";
import { type FontFile, inspectFont } from "./uploads/font-file";
import { withUploadedFont } from "./uploads/font-stack";

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
  /** How many rasterised looks (atlases: a look at one size and variant) the cache holds. */
  readonly cachedLooks: number;
  /** What the caches hold now, in bytes, and their budgets. */
  cacheStats(): ImageCacheStats;
  /** Forgets every rasterised look and encoded frame. */
  clear(): void;
}

/** The caches of a renderer: entries, bytes held and byte budgets. */
export interface ImageCacheStats {
  atlases: number;
  /** Atlases built since the renderer was made (satori and resvg ran that often). */
  atlasBuilds: number;
  atlasBytes: number;
  atlasBudget: number;
  frames: number;
  frameBytes: number;
  frameBudget: number;
}

/** Options of {@link createImageRenderer}. */
export interface ImageRendererOptions {
  /**
   * Bytes of rasterised looks kept: the panel's pixels (one byte each), every
   * glyph cell and the colour table. A 600x160 look takes about 0.15 MB, the same
   * at 2x 0.5 MB, the largest (1200x600 at 2x) about 3 MB. Default 32 MiB.
   */
  atlasBytes?: number;
  /** Bytes of encoded frames kept (a ticking digit is some 300 bytes). Default 8 MiB. */
  frameBytes?: number;
  /** At most this many rasterised looks, whatever their bytes. Default: no count limit. */
  maxLooks?: number;
}

/** Default byte budgets of a renderer's caches. */
export const IMAGE_CACHE_DEFAULTS = Object.freeze({
  atlasBytes: 32 * 1024 * 1024,
  frameBytes: 8 * 1024 * 1024,
});

// A cached layout's key is digit count * this + units shown: more than the four time units.
const LAYOUT_KEY_UNITS = 8;

/** What an image needs before its frames: the input, its text, atlas and layout. */
interface Placement {
  input: ResolvedInput;
  text: LookText;
  atlas: Atlas;
  /** The layout of the first frame's units. */
  layout: Layout;
  /** The layout of a frame showing the `n` smallest units (hidden leading zeros: fewer). */
  layoutFor(n: number): Layout;
}

interface Prepared extends Placement {
  /** The frames, up to the first that shows the ended look; each placed when asked. */
  placed: PlacedFrames;
  /** Whether the last frame shows the ended look. */
  endsEnded: boolean;
}

/**
 * A renderer with its own cache. Most code wants the shared one behind
 * {@link renderGif} and {@link renderPng}; a server may want several, or a bound.
 * @example
 * const images = createImageRenderer({ maxLooks: 16 });
 * const gif = await images.gif({ remainingSeconds: 3600, look: timer.look, ended: timer.ended });
 */
export function createImageRenderer(options: ImageRendererOptions = {}): ImageRenderer {
  const atlasBudget = budget(options.atlasBytes, IMAGE_CACHE_DEFAULTS.atlasBytes, "atlasBytes");
  const frameBudget = budget(options.frameBytes, IMAGE_CACHE_DEFAULTS.frameBytes, "frameBytes");
  const maxLooks = options.maxLooks ?? Number.POSITIVE_INFINITY;
  // Promises, not atlases: concurrent first requests for a look share one build.
  // An entry's bytes are an estimate until its build finishes.
  const atlases: ByteLru<string, Promise<Atlas>> = createByteLru(atlasBudget, maxLooks);
  const frames: FrameCache = createByteLru(frameBudget);
  const texts: Lru<string, Drawn> = createLru(256);
  // The atlas each finished build gave, so an image of a built look needs no await.
  const built = new WeakMap<Promise<Atlas>, Atlas>();
  let atlasBuilds = 0;
  // Layouts per atlas, planned once instead of for every image: planning one costs about a
  // tenth of a warm GIF (bench/README.md, issue 37). Dropped with the atlas.
  const layoutCache = new WeakMap<Atlas, Map<number, Layout>>();
  const layoutsOf = (atlas: Atlas): Map<number, Layout> => {
    let found = layoutCache.get(atlas);
    if (!found) {
      found = new Map();
      layoutCache.set(atlas, found);
    }
    return found;
  };

  function textOf(input: ResolvedInput): Drawn {
    const key = `${input.lookKey}\u0000${input.endedText}${input.font ? "\u0000upload" : ""}`;
    let found = texts.get(key);
    if (!found) {
      const { font, locale } = input.look;
      // Read once per look: the same upload arrives with every image of it.
      const upload = input.font ? readUploadedFont(input.font.data) : null;
      const text = lookText(input.look, input.endedText, upload);
      const stack = fontStack(font, drawnText(text), locale);
      const lookFonts = upload ? withUploadedFont(stack, input.font!.id, upload) : stack;
      found = { text, ...wordsOf(input.look, text, lookFonts) };
      texts.set(key, found);
    }
    return found;
  }

  function atlasFor(
    input: ResolvedInput,
    { text, fonts, words }: Drawn,
    digitPx: number,
    caps: ReadonlyArray<readonly [TimeUnit, number]>,
  ): Promise<Atlas> {
    const shaped = SHAPED.has(input.look.style);
    const key = [
      // Shapes are sized by the digit slots: only the largest unit's count varies per image.
      shaped ? caps.map(([, n]) => n).join(",") : "",
      input.lookKey,
      input.endedText,
      input.width,
      input.height,
      input.scale,
      input.variant,
      digitPx,
      input.font ? "upload" : "",
      input.backgroundImage ? "picture" : "",
    ].join("\u0000");
    let atlas = atlases.get(key);
    if (!atlas) {
      const spec = sceneSpec({
        width: input.width * input.scale,
        height: input.height * input.scale,
        scale: input.scale,
        colors: variantColors(input.look, input.variant),
        transparent: input.look.transparent,
        style: input.look.style,
        background: backgroundSpec(input),
        wordsInput: words(input.variant, input.scale),
        fonts,
        digitPx,
        nominalPx: input.look.font_size * input.scale,
        endedPx: input.look.font_size * input.scale,
      });
      const building = buildAtlas(spec, text, shaped ? caps : []);
      atlas = building;
      atlases.set(key, building, spec.width * spec.height * 2);
      atlasBuilds++;
      building.then(
        (done) => {
          built.set(building, done);
          // Still the cached entry (not evicted or replaced meanwhile): its real size.
          if (atlases.peek(key) === building) atlases.resize(key, done.bytes);
        },
        // A failed build must not stay cached: the next request tries again.
        () => {
          if (atlases.peek(key) === building) atlases.delete(key);
        },
      );
    }
    return atlas;
  }

  /**
   * The look's atlas and layout for `raw`: at once when its atlases are built (no await, so an
   * image renders in one synchronous run), else a promise.
   */
  function prepare(raw: ImageInput): Placement | Promise<Placement> {
    const input = resolveInput(raw);
    const drawn = textOf(input);
    const { text } = drawn;
    const first = frameContent(text, input.remaining);
    const { look } = input;
    const all: TimeUnit[] = splitRemaining(1, {
      largestUnit: look.largest_unit,
      units: look.units,
    }).map((p) => p.unit);
    // The largest unit is the only unbounded one and never grows while counting down, so
    // the first frame's digit count holds for the whole animation. Any other unit holds at
    // most what the next larger shown unit leaves (hours after days: 23; minutes after
    // days: 1439).
    const capacity = all.map((unit, i) =>
      i === 0
        ? first.ended || first.parts.length < all.length
          ? 1
          : first.parts[0]!.digits.length
        : String(UNIT_SECONDS[all[i - 1]!] / UNIT_SECONDS[unit] - 1).length,
    );
    // Hidden leading zero units: a frame shows the smallest n units, n only falling as the
    // time does. Each n has its own row, centred anew; the first frame's is fitted.
    const planOf = (n: number): RowPlan => {
      const units = all.slice(all.length - n);
      return {
        units,
        capacity: capacity.slice(all.length - n),
        labels: units.map((unit) => text.labelsByUnit.get(unit) ?? []),
        hasSeparator: drawnSeparator(text) !== "",
      };
    };
    const shown = first.ended ? all.length : first.parts.length;
    const caps = all.map((unit, i) => [unit, capacity[i]!] as const);
    return fit(input, drawn, caps, planOf(shown), planOf, look.font_size * input.scale, 0, null);
  }

  /**
   * The atlas whose layout fits, from `digitPx` down (a large font in a narrow image scales
   * down instead of clipping), each step at once while its atlas is built; awaits the first
   * that is not, and goes on asynchronously from there.
   */
  function fit(
    input: ResolvedInput,
    drawn: Drawn,
    caps: ReadonlyArray<readonly [TimeUnit, number]>,
    plan: RowPlan,
    planOf: (n: number) => RowPlan,
    digitPx: number,
    shrinks: number,
    awaited: Atlas | null,
  ): Placement | Promise<Placement> {
    let px = digitPx;
    let atlas = awaited;
    for (let done = shrinks; ; done++) {
      if (atlas === null) {
        const building = atlasFor(input, drawn, px, caps);
        atlas = built.get(building) ?? null;
        if (atlas === null) {
          const at = px;
          const steps = done;
          return building.then((ready) => fit(input, drawn, caps, plan, planOf, at, steps, ready));
        }
      }
      const fitted = atlas;
      const layouts = layoutsOf(atlas);
      // The atlas fixes the look, its texts and units; of the plan only the largest unit's
      // digit count (capacity[0]) and how many units show vary from image to image.
      const largest = caps[0]![1];
      const layoutFor = (n: number): Layout => {
        const key = largest * LAYOUT_KEY_UNITS + n;
        let found = layouts.get(key);
        if (!found) {
          found = planLayout(fitted.spec, fitted.sizes, planOf(n));
          layouts.set(key, found);
        }
        return found;
      };
      const layout = layoutFor(plan.units.length);
      const placement = { input, text: drawn.text, atlas, layout, layoutFor };
      if (layout.fits || done >= 4) return placement;
      const { content } = atlas.spec;
      const factor = Math.min(content.w / layout.rowW, content.h / layout.rowH);
      const next = Math.max(4, Math.floor(px * factor * 0.98 * 2) / 2);
      if (next >= px) return placement;
      px = next;
      atlas = null;
    }
  }

  /**
   * The frames' contents and cells, made after every await, one frame at a time as the
   * encoder asks (animate.ts, PlacedFrames): a render's thousands of small objects then die
   * young. Made before an await, or all 60 frames' worth before encoding, many would be
   * alive at a minor GC, and V8 would then allocate them in the old generation for the rest
   * of the process (allocation-site pretenuring): twice the CPU per image for `render
   * --batch`, 1.6x per GIF in some processes (bench/README.md).
   */
  function place(p: Placement, frameCount?: number): Prepared {
    const { input, text, atlas, layoutFor } = p;
    const count = frameCount ?? (input.running ? input.frames : 1);
    const remainingAt = (k: number) => input.remaining - (input.running ? k : 0);
    // The end is final: the animation stops on the ended look instead of looping back.
    const shown =
      input.remaining <= 0
        ? 1
        : input.running
          ? Math.min(count, Math.ceil(input.remaining) + 1)
          : count;
    const separator = drawnSeparator(text);
    const at = (k: number): PlacedCell[] => {
      const content = frameContent(text, remainingAt(k));
      return placeCells(
        layoutFor(content.ended ? p.layout.groups.length : content.parts.length),
        atlas.sizes,
        content,
        separator,
      );
    };
    return { ...p, placed: { count: shown, at }, endsEnded: remainingAt(shown - 1) <= 0 };
  }

  /** {@link prepare}, then {@link place}: synchronous when the atlas is built. */
  function prepared(raw: ImageInput, frameCount?: number): Prepared | Promise<Prepared> {
    const p = prepare(raw);
    return p instanceof Promise ? p.then((q) => place(q, frameCount)) : place(p, frameCount);
  }

  return {
    async gif(raw) {
      const ready = prepare(raw);
      const p = place(ready instanceof Promise ? await ready : ready);
      return encodeGif({
        width: p.atlas.base.w,
        height: p.atlas.base.h,
        palette: p.atlas.palette,
        loop: p.input.running && p.placed.count > 1 && !p.endsEnded,
        frames: animationFrames(p.atlas, p.placed, frames),
      });
    },

    async png(raw) {
      const p = await prepared(raw, 1);
      const canvas = scratchCanvas(p.atlas.base);
      drawFrame(canvas, p.placed.at(0), p.atlas.cells);
      return encodePng(canvas, p.atlas.palette);
    },

    async rgba(raw) {
      const p = await prepared(raw, frameIndex(raw) + 1);
      const canvas = scratchCanvas(p.atlas.base);
      drawFrame(canvas, p.placed.at(Math.min(frameIndex(raw), p.placed.count - 1)), p.atlas.cells);
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
      const p = await prepared(raw, frameIndex(raw) + 1);
      const { spec } = p.atlas;
      const placed = p.placed.at(Math.min(frameIndex(raw), p.placed.count - 1));
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
    cacheStats() {
      return {
        atlases: atlases.size,
        atlasBuilds,
        atlasBytes: atlases.bytes,
        atlasBudget,
        frames: frames.size,
        frameBytes: frames.bytes,
        frameBudget,
      };
    },
    clear() {
      atlases.clear();
      frames.clear();
      texts.clear();
      releaseScratch();
    },
  };
}

/** A look's text, the fonts that draw it, and its words per variant and scale. */
interface Drawn {
  text: LookText;
  fonts: FontStack;
  words(variant: Variant, scale: 1 | 2): WordsInput[];
}

/**
 * The fonts of the look and of its words (a heading in another built-in font adds that
 * font's faces to the stack satori gets), and the words as the scene draws them.
 */
function wordsOf(look: Look, text: LookText, lookFonts: FontStack): Omit<Drawn, "text"> {
  const fonts = [...lookFonts.fonts];
  const seen = new Set(fonts.map((f) => `${f.name}\u0000${f.weight}`));
  const familyOf = (font: Look["font"] | null, words: string): string => {
    if (font === null) return lookFonts.family;
    const stack = fontStack(font, words, look.locale);
    for (const face of stack.fonts) {
      const id = `${face.name}\u0000${face.weight}`;
      if (!seen.has(id)) {
        seen.add(id);
        fonts.push(face);
      }
    }
    return stack.family;
  };
  const entries: Array<{
    kind: WordsInput["kind"];
    text: string;
    family: string;
    size: number;
    color: string | null;
    fill: string | null | undefined;
  }> = [];
  if (look.heading)
    entries.push({
      kind: "heading",
      text: text.heading,
      family: familyOf(look.heading.font, text.heading),
      size: look.heading.size,
      color: look.heading.color,
      fill: undefined,
    });
  if (look.subheading)
    entries.push({
      kind: "subheading",
      text: text.subheading,
      family: familyOf(look.subheading.font, text.subheading),
      size: look.subheading.size,
      color: look.subheading.color,
      fill: undefined,
    });
  if (look.button)
    entries.push({
      kind: "button",
      text: text.button,
      family: familyOf(look.button.font, text.button),
      size: look.button.size,
      color: look.button.color,
      fill: look.button.background_color,
    });
  return {
    fonts: { fonts, family: lookFonts.family },
    words(variant, scale) {
      const colors = variantColors(look, variant);
      return entries.map((e) => ({
        kind: e.kind,
        text: e.text,
        family: e.family,
        px: e.size * scale,
        color: e.color ?? (e.kind === "button" ? colors.background : colors.text),
        fill: e.kind === "button" ? (e.fill ?? colors.accent) : null,
      }));
    },
  };
}

/** The look's background as the scene draws it: a gradient, the uploaded picture, or none. */
function backgroundSpec(input: ResolvedInput): BackgroundSpec {
  const bg = input.look.background;
  if (bg === null || input.look.transparent) return null;
  if (bg.type === "gradient")
    return { type: "gradient", from: bg.from, to: bg.to, angle: bg.angle };
  // A picture the caller did not pass (deleted, or not looked up) is drawn as none.
  const picture = input.backgroundImage;
  if (!picture) return null;
  // Only when an atlas is built: satori decodes it there, once per look and size.
  const { data } = picture;
  const base64 = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
  return { type: "image", src: `data:image/${picture.type};base64,${base64}` };
}

/** An uploaded font as the caller passed it; a file that does not read is the caller's error. */
function readUploadedFont(data: Uint8Array): FontFile {
  try {
    return inspectFont(data);
  } catch (error) {
    if (error instanceof FileProblem) throw invalid("font.data", `is not usable: ${error.message}`);
    throw error;
  }
}

function budget(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw invalid(name, "must be a number of bytes, 0 or more");
  return value;
}

/** The `frame` option of rgba() and reference(): which frame of the animation, 0..59. */
function frameIndex(raw: { frame?: number }): number {
  const frame = raw.frame ?? 0;
  if (!Number.isInteger(frame) || frame < 0 || frame >= IMAGE_LIMITS.maxFrames)
    throw invalid("frame", `must be an integer from 0 to ${IMAGE_LIMITS.maxFrames - 1}`);
  return frame;
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
