// The only place satori and resvg run for the fast path: once per look and size,
// every piece an image of that look can show is laid out on one sheet, rasterised
// in one resvg call, flattened, indexed into the look's palette and cut into cells.
import { createRequire } from "node:module";
import type { Resvg as ResvgClass } from "@resvg/resvg-js";
import type { TimeUnit } from "@tminus/core";
import type satoriFunction from "satori";
import { unitSteps } from "../_shares";
import { parseHex } from "../colors";
import { allLabels, drawnSeparator, type LookText } from "../content";
import { loadAdditionalAsset } from "../emoji";
import { RenderError } from "../errors";
import { type CellRaster, type IndexedImage, inkBox } from "./composite";
import { type CellSize, cellKey, SHAPED, shapeGeometry } from "./layout";
import { buildPalette, type Palette, TRANSPARENT } from "./palette";
import {
  type CellSpec,
  type Element,
  paperOf,
  type SceneSpec,
  sceneSpec,
  sheetElement,
} from "./scene";

/** A look rasterised at one size: palette, panel and every cell, as palette indices. */
export interface Atlas {
  /** Unique in this thread: frames cached for the atlas are keyed by it. */
  id: number;
  /** What its pixels and tables hold, for the cache's byte budget. */
  bytes: number;
  spec: SceneSpec;
  palette: Palette;
  /** The panel alone, canvas-sized. */
  base: IndexedImage;
  cells: Map<string, CellRaster>;
  sizes: Map<string, CellSize>;
  /** Palette index of a flattened pixel (0xRRGGBB or TRANSPARENT). */
  indexOf(pixel: number): number;
}

let atlasCount = 0;

// satori and resvg load on first use: a process that only hands images to a render
// pool (an API server) never loads them on its own thread. satori's CommonJS build
// is loaded the same way from our ESM and CJS builds: a default import compiled to
// CJS would get its module object, not the function.
const load = createRequire(import.meta.url);
let satoriFn: typeof satoriFunction | undefined;
let ResvgFn: typeof ResvgClass | undefined;
const satori = (...args: Parameters<typeof satoriFunction>) => {
  satoriFn ??= (load("satori") as { default: typeof satoriFunction }).default;
  return satoriFn(...args);
};

/** Every cell a look can need: ten digits, the separator, all label forms, the ended text. */
export function atlasCells(text: LookText): CellSpec[] {
  const cells: CellSpec[] = [];
  for (let d = 0; d < 10; d++)
    cells.push({ key: cellKey.digit(String(d)), kind: "digit", text: String(d) });
  const separator = drawnSeparator(text);
  if (separator !== "") cells.push({ key: cellKey.separator, kind: "separator", text: separator });
  for (const label of allLabels(text))
    cells.push({ key: cellKey.label(label), kind: "label", text: label });
  if (text.endedText !== "")
    cells.push({ key: cellKey.ended, kind: "ended", text: text.endedText });
  return cells;
}

/** Runs satori on a tree; failures are renderer bugs, reported as such. */
export async function toSvg(
  element: Element,
  spec: SceneSpec,
  width: number,
  onNode?: (node: {
    key?: string | number;
    left: number;
    top: number;
    width: number;
    height: number;
  }) => void,
): Promise<string> {
  try {
    return await satori(element as never, {
      width,
      fonts: spec.fonts.fonts,
      // Emoji the fonts lack are Twemoji pictures; satori asks once per sheet, and the
      // sheet is drawn once per look and size (the atlas), so each picture is read once
      // per look at most (emoji.ts keeps the files' data too).
      loadAdditionalAsset,
      ...(onNode ? { onNodeDetected: onNode } : {}),
    });
  } catch (err) {
    throw new RenderError(
      "render_failed",
      `satori could not lay out the image: ${(err as Error).message}`,
    );
  }
}

/** Rasterises an SVG; pixels are premultiplied RGBA. System fonts stay off: text is paths already. */
export function rasterise(svg: string): { width: number; height: number; pixels: Uint8Array } {
  ResvgFn ??= (load("@resvg/resvg-js") as { Resvg: typeof ResvgClass }).Resvg;
  const image = new ResvgFn(svg, { font: { loadSystemFonts: false } }).render();
  return { width: image.width, height: image.height, pixels: image.pixels };
}

/**
 * Premultiplied RGBA to 0xRRGGBB per pixel, blended over the matte. GIF has
 * 1-bit transparency: a transparent look keeps pixels at least half covered
 * (blended over the matte) and drops the rest.
 */
export function flatten(
  rgba: Uint8Array,
  matte: [number, number, number],
  transparent: boolean,
): Int32Array {
  const out = new Int32Array(rgba.length / 4);
  const [mr, mg, mb] = matte;
  const matteColor = (mr << 16) | (mg << 8) | mb;
  for (let i = 0, j = 0; j < out.length; i += 4, j++) {
    const a = rgba[i + 3]!;
    // Most of a sheet is fully covered or empty: no blending to do.
    if (a === 255) {
      out[j] = (rgba[i]! << 16) | (rgba[i + 1]! << 8) | rgba[i + 2]!;
      continue;
    }
    if (transparent && a < 128) {
      out[j] = TRANSPARENT;
      continue;
    }
    if (a === 0) {
      out[j] = matteColor;
      continue;
    }
    const rest = 255 - a;
    const r = rgba[i]! + Math.round((mr * rest) / 255);
    const g = rgba[i + 1]! + Math.round((mg * rest) / 255);
    const b = rgba[i + 2]! + Math.round((mb * rest) / 255);
    out[j] = (Math.min(255, r) << 16) | (Math.min(255, g) << 8) | Math.min(255, b);
  }
  return out;
}

/** Packed key colours of a spec, so they stay exact whatever the quantizer does. */
export function keyColors(spec: SceneSpec): number[] {
  const { colors } = spec;
  const list = [colors.text, colors.accent, colors.matte];
  if (SHAPED.has(spec.style)) list.push(spec.tint);
  if (!spec.transparent) list.unshift(colors.background);
  return list.map((hex) => {
    const [r, g, b] = parseHex(hex);
    return (r << 16) | (g << 8) | b;
  });
}

/**
 * Lays out and rasterises a look's sheet once. An ended text taller than the
 * content box is shrunk (it wraps at the content width) until it fits.
 */
/**
 * The shape cells of a shaped style (boxes, cards, every step of the rings and bars) for the
 * units shown and their digit slots, sized from the digits the first sheet measured.
 */
export function shapeCells(
  spec: SceneSpec,
  slotW: number,
  digitH: number,
  capacities: ReadonlyArray<readonly [TimeUnit, number]>,
): CellSpec[] {
  const cells = new Map<string, CellSpec>();
  for (const [unit, cap] of capacities) {
    const g = shapeGeometry(spec, slotW, digitH, cap);
    const steps = unitSteps(unit);
    if (spec.style === "boxes" || spec.style === "outlined")
      cells.set(cellKey.box(cap), { key: cellKey.box(cap), kind: "box", text: "", w: g.w, h: g.h });
    else if (spec.style === "flip" && g.card)
      cells.set(cellKey.card, { key: cellKey.card, kind: "card", text: "", ...g.card });
    else if (spec.style === "circles" || spec.style === "bar")
      for (let k = 0; k <= steps; k++) {
        const ring = spec.style === "circles";
        const key = ring ? cellKey.ring(cap, steps, k) : cellKey.bar(cap, steps, k);
        cells.set(key, {
          key,
          kind: ring ? "ring" : "bar",
          text: "",
          w: g.w,
          h: ring ? g.h : g.barH,
          share: k / steps,
        });
      }
  }
  return [...cells.values()];
}

export async function buildAtlas(
  spec: SceneSpec,
  text: LookText,
  capacities: ReadonlyArray<readonly [TimeUnit, number]> = [],
): Promise<Atlas> {
  const cells = atlasCells(text);
  // Wide enough for any 20-character label or 3-character separator on one line.
  const sheetWidth = Math.ceil(
    Math.max(spec.width, spec.labelPx * 22 + 8 * spec.cellPad, spec.digitPx * 4),
  );
  let current = spec;
  let svg = "";
  let boxes = new Map<string, { x: number; y: number; w: number; h: number }>();
  for (let attempt = 0; ; attempt++) {
    const found = new Map<string, { x: number; y: number; w: number; h: number }>();
    svg = await toSvg(sheetElement(current, cells, sheetWidth), current, sheetWidth, (node) => {
      if (typeof node.key === "string")
        found.set(node.key, { x: node.left, y: node.top, w: node.width, h: node.height });
    });
    boxes = found;
    const ended = found.get(cellKey.ended);
    if (!ended || ended.h <= current.content.h || attempt === 4) break;
    const shrink = Math.max(0.5, Math.sqrt(current.content.h / ended.h) * 0.97);
    const endedPx = Math.max(8 * current.scale, Math.floor(current.endedPx * shrink * 2) / 2);
    if (endedPx === current.endedPx) break;
    current = sceneSpec({ ...current, endedPx });
  }
  const raster = rasterise(svg);
  const matte = parseHex(current.colors.matte);
  const flat = flatten(raster.pixels, matte, current.transparent);
  // Shaped styles: a second sheet of shapes sized from the digits just measured.
  let shapes: CellSpec[] = [];
  let shapeBoxes = new Map<string, { x: number; y: number; w: number; h: number }>();
  let shapeFlat: Int32Array = new Int32Array(0);
  let shapeWidth = 0;
  if (SHAPED.has(current.style)) {
    let slotW = 0;
    let digitH = 0;
    for (let d = 0; d < 10; d++) {
      const box = boxes.get(cellKey.digit(String(d)))!;
      slotW = Math.max(slotW, box.w);
      digitH = Math.max(digitH, box.h);
    }
    shapes = shapeCells(current, slotW, digitH, capacities);
    shapeWidth = Math.ceil(
      Math.max(sheetWidth, ...shapes.map((c) => (c.w ?? 0) + 8 * current.scale)),
    );
    const found = new Map<string, { x: number; y: number; w: number; h: number }>();
    const shapeSvg = await toSvg(
      sheetElement(current, shapes, shapeWidth, false),
      current,
      shapeWidth,
      (node) => {
        if (typeof node.key === "string")
          found.set(node.key, { x: node.left, y: node.top, w: node.width, h: node.height });
      },
    );
    shapeBoxes = found;
    const shapeRaster = rasterise(shapeSvg);
    shapeWidth = shapeRaster.width;
    shapeFlat = flatten(shapeRaster.pixels, matte, current.transparent);
  }
  const both = new Int32Array(flat.length + shapeFlat.length);
  both.set(flat);
  both.set(shapeFlat, flat.length);
  const { palette, indexOf, mapped } = buildPalette(both, keyColors(current));

  const cut = (
    box: { x: number; y: number; w: number; h: number },
    from: Int32Array = flat,
    fromWidth: number = raster.width,
  ): IndexedImage => {
    const pixels = new Uint8Array(box.w * box.h);
    // Runs of one colour are the rule: look a colour up once per run.
    let last = Number.NaN;
    let lastIndex = 0;
    for (let y = 0; y < box.h; y++) {
      const row = (box.y + y) * fromWidth + box.x;
      for (let x = 0; x < box.w; x++) {
        const c = from[row + x]!;
        if (c !== last) {
          last = c;
          lastIndex = indexOf(c);
        }
        pixels[y * box.w + x] = lastIndex;
      }
    }
    return { w: box.w, h: box.h, pixels };
  };
  const sizes = new Map<string, CellSize>();
  const rasters = new Map<string, CellRaster>();
  // Cells are painted on their paper (the panel's fill, a card's, or nothing when
  // transparent), and only what differs from it is ink: outside it a cell equals what lies
  // beneath it (the panel, or the shape drawn first).
  const paperIndex = (kind: CellSpec["kind"]) => {
    const paper = paperOf(current, kind);
    if (paper === null) return indexOf(TRANSPARENT);
    const [r, g, b] = parseHex(paper);
    return indexOf((r << 16) | (g << 8) | b);
  };
  const add = (
    list: CellSpec[],
    found: Map<string, { x: number; y: number; w: number; h: number }>,
    from: Int32Array,
    fromWidth: number,
  ) => {
    const fromHeight = from.length / Math.max(1, fromWidth);
    for (const cell of list) {
      const box = found.get(cell.key);
      if (!box || box.x + box.w > fromWidth || box.y + box.h > fromHeight)
        throw new RenderError("render_failed", `the atlas has no room for the ${cell.kind} cell`);
      sizes.set(cell.key, { w: box.w, h: box.h });
      const image = cut(box, from, fromWidth);
      rasters.set(cell.key, { ...image, ink: inkBox(image, paperIndex(cell.kind)) });
    }
  };
  add(cells, boxes, flat, raster.width);
  add(shapes, shapeBoxes, shapeFlat, shapeWidth);
  const base = cut({ x: 0, y: 0, w: current.width, h: current.height });
  // Pixels, plus the colour map (a Map entry is some 50 bytes) and the objects around them.
  let bytes = base.pixels.length + palette.rgb.length + mapped * 50 + 1024;
  for (const [key, cell] of rasters) bytes += cell.pixels.length + key.length * 2 + 128;
  return {
    id: ++atlasCount,
    bytes,
    spec: current,
    palette,
    base,
    cells: rasters,
    sizes,
    indexOf,
  };
}
