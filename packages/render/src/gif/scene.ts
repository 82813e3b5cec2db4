// What an image is made of, as satori element trees. The atlas draws every cell
// once on a sheet; the reference renderer draws whole frames from the very same
// cell styles at the layout's positions, so the two agree pixel for pixel.
import type { LookStyle } from "@tminus/core";
import { baseDirection } from "../_bidi";
import { mixHex, type VariantColors } from "../colors";
import { BOLD, type FontStack, REGULAR } from "../fonts";

/** A satori element: a plain object in React's shape, no React needed. */
export interface Element {
  type: string;
  key?: string;
  props: { style?: Record<string, unknown>; children?: Element[] | string };
}

/** A rectangle in device pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Words drawn into the image (heading, line below, button), before they are placed. */
export interface WordsInput {
  kind: "heading" | "subheading" | "button";
  text: string;
  /** satori's font family list for these words (their fonts are in the spec's stack). */
  family: string;
  /** Letter size in device pixels, before shrinking to fit. */
  px: number;
  color: string;
  /** The button's fill; null for the others. */
  fill: string | null;
}

/** Words placed: a band of the canvas, full inner width, text centred in it. */
export interface PlacedWords extends WordsInput {
  y: number;
  h: number;
}

/** What fills the canvas behind the panel: a gradient, or a picture as a data URL. */
export type BackgroundSpec =
  | null
  | { type: "gradient"; from: string; to: string; angle: number }
  | { type: "image"; src: string };

/** Everything that decides the pixels of one look at one size, fonts included. */
export interface SceneSpec {
  /** Canvas size in device pixels (CSS pixels times scale). */
  width: number;
  height: number;
  scale: 1 | 2;
  colors: VariantColors;
  transparent: boolean;
  style: LookStyle;
  background: BackgroundSpec;
  wordsInput: readonly WordsInput[];
  fonts: FontStack;
  /** Font sizes in device pixels. */
  digitPx: number;
  /** The look's own digit size at this scale, before any shrinking to fit. */
  nominalPx: number;
  labelPx: number;
  endedPx: number;
  /** Inner padding of every text cell, so anti-aliased glyph edges stay inside it. */
  cellPad: number;
  border: number;
  radius: number;
  /** The panel: the whole canvas, or with a background the band the countdown sits in. */
  plate: Box;
  /** Words placed on the canvas. */
  words: PlacedWords[];
  /** Where text may go: inside the panel and its padding. */
  content: Box;
  /** Colours of the style's shapes: card fill, ring and bar track. */
  tint: string;
}

/** The kinds of cell an image is assembled from: text, and the styles' shapes. */
export type CellKind = "digit" | "separator" | "label" | "ended" | "box" | "card" | "ring" | "bar";

/** One cell: its atlas key, kind and text; shapes have their size and share (0..1). */
export interface CellSpec {
  key: string;
  kind: CellKind;
  text: string;
  w?: number;
  h?: number;
  share?: number;
}

/** Styles that draw the panel's border (the others have none). */
const BORDERED: ReadonlySet<LookStyle> = new Set(["rounded"]);

/** Sizes and boxes of a look at a canvas size; fonts scale with `digitPx`. */
export function sceneSpec(
  // Everything but what is worked out here.
  options: Omit<
    SceneSpec,
    "labelPx" | "cellPad" | "border" | "radius" | "content" | "plate" | "words" | "tint"
  >,
): SceneSpec {
  const { width, height, scale, style, digitPx, nominalPx, background } = options;
  const border = BORDERED.has(style) ? 2 * scale : 0;
  const rounded = BORDERED.has(style) || background !== null;
  const padX = Math.max(border + 2 * scale, Math.round(width * 0.04));
  const padY = Math.max(border + 2 * scale, Math.round(height * 0.08));
  const inner: Box = { x: padX, y: padY, w: width - 2 * padX, h: height - 2 * padY };
  // Words take bands above and below the row; together at most half the inner height, so
  // the countdown keeps the rest (they shrink when their sizes ask for more).
  const gap = 2 * scale;
  const bandOf = (w: WordsInput, px: number) =>
    Math.ceil(px * 1.25) + (w.kind === "button" ? 2 * Math.round(px * 0.4) : 0);
  const wanted = options.wordsInput.reduce((sum, w) => sum + bandOf(w, w.px) + gap, 0);
  const shrink = wanted > inner.h * 0.5 ? (inner.h * 0.5) / wanted : 1;
  const sized = options.wordsInput.map((w) => {
    const px = Math.max(6 * scale, Math.floor(w.px * shrink));
    return { ...w, px, h: bandOf(w, px) };
  });
  const words: PlacedWords[] = [];
  let top = inner.y;
  for (const w of sized.filter((w) => w.kind === "heading")) {
    words.push({ ...w, y: top });
    top += w.h + gap;
  }
  let bottom = inner.y + inner.h;
  for (const w of sized.filter((w) => w.kind !== "heading").reverse()) {
    bottom -= w.h;
    words.push({ ...w, y: bottom });
    bottom -= gap;
  }
  const middle: Box = { x: inner.x, y: top, w: inner.w, h: Math.max(1, bottom - top) };
  let plate: Box = { x: 0, y: 0, w: width, h: height };
  let content = middle;
  if (background !== null) {
    // On a gradient or picture the row sits on a panel of its own colour: cells carry it.
    plate = middle;
    const inX = Math.max(border + 2 * scale, Math.round(middle.w * 0.03));
    const inY = Math.max(border + 2 * scale, Math.round(middle.h * 0.06));
    content = {
      x: middle.x + inX,
      y: middle.y + inY,
      w: Math.max(1, middle.w - 2 * inX),
      h: Math.max(1, middle.h - 2 * inY),
    };
  }
  const radius = rounded ? Math.min(12 * scale, Math.floor(plate.h / 2)) : 0;
  return {
    ...options,
    // Labels are 0.3 of the digits but at least 8 CSS px, and shrink with the digits
    // when the row is fitted into a small image.
    labelPx: round2(Math.max(8 * scale, nominalPx * 0.3) * (digitPx / nominalPx)),
    cellPad: Math.max(1, Math.ceil(digitPx / scale / 48)) * scale,
    border,
    radius,
    plate,
    words,
    content,
    tint: mixHex(options.colors.accent, options.colors.background, 0.18),
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** The colour a cell of `kind` is painted on: what is beneath its glyphs. Null: nothing (transparent). */
export function paperOf(spec: SceneSpec, kind: CellKind): string | null {
  if (kind === "digit" && spec.style === "boxes") return spec.tint;
  if (kind === "digit" && spec.style === "flip") return spec.colors.text;
  return spec.transparent ? null : spec.colors.background;
}

/**
 * CSS of a text cell. Cells fill their own background, so they blit as opaque
 * rectangles. satori orders right-to-left runs itself; the cell's base direction
 * (from its first strong letter) decides where neutral characters go.
 */
export function cellStyle(spec: SceneSpec, kind: CellKind, text = ""): Record<string, unknown> {
  const base: Record<string, unknown> = {
    display: "flex",
    flexShrink: 0,
    overflow: "hidden",
    whiteSpace: "pre",
    fontFamily: spec.fonts.family,
    padding: `0 ${spec.cellPad}px`,
  };
  if (baseDirection(text) === "rtl") base["direction"] = "rtl";
  const paper = paperOf(spec, kind);
  if (paper !== null) base["backgroundColor"] = paper;
  switch (kind) {
    case "digit":
      return {
        ...base,
        position: "relative",
        fontSize: spec.digitPx,
        fontWeight: BOLD,
        color: spec.style === "flip" ? spec.colors.background : spec.colors.text,
      };
    case "separator":
      return { ...base, fontSize: spec.digitPx, fontWeight: BOLD, color: spec.colors.accent };
    case "label":
      return {
        ...base,
        fontSize: spec.labelPx,
        fontWeight: REGULAR,
        color: spec.style === "minimal" ? spec.colors.accent : spec.colors.text,
      };
    default:
      // The ended text wraps inside the content width, centred, like a paragraph.
      return {
        ...base,
        whiteSpace: "normal",
        width: spec.content.w,
        justifyContent: "center",
        textAlign: "center",
        fontSize: spec.endedPx,
        fontWeight: BOLD,
        color: spec.colors.text,
      };
  }
}

/** Thickness of the flip cards' split and of the rings, in device pixels. */
export function strokeOf(spec: SceneSpec, kind: "split" | "ring" | "outline"): number {
  if (kind === "split") return Math.max(spec.scale, Math.round(spec.digitPx * 0.025));
  if (kind === "outline") return Math.max(spec.scale, Math.round(spec.digitPx * 0.04));
  return Math.max(2 * spec.scale, Math.round(spec.digitPx * 0.08));
}

/** The children of a cell: its text, and the flip card's split drawn across the digit. */
function cellChildren(spec: SceneSpec, cell: CellSpec): Element[] | string {
  if (cell.kind !== "digit" || spec.style !== "flip") return cell.text;
  return [
    { type: "div", props: { style: { display: "flex" }, children: cell.text } },
    splitLine(spec),
  ];
}

// At half the height of the card and of the digit on it: the digit sits centred on its card,
// so both lines fall on the same (possibly half) pixel row and blend alike.
function splitLine(spec: SceneSpec): Element {
  const t = strokeOf(spec, "split");
  return {
    type: "div",
    props: {
      style: {
        position: "absolute",
        left: 0,
        right: 0,
        top: "50%",
        height: t,
        backgroundColor: spec.transparent ? spec.colors.matte : spec.colors.background,
      },
    },
  };
}

const fixed = (n: number) => Math.round(n * 1000) / 1000;

/** A shape cell (box, card, ring, bar): opaque, the panel's colour around the shape. */
export function shapeElement(
  spec: SceneSpec,
  cell: CellSpec,
  extra: Record<string, unknown> = {},
): Element {
  const w = cell.w ?? 0;
  const h = cell.h ?? 0;
  const outer: Record<string, unknown> = {
    display: "flex",
    position: "relative",
    flexShrink: 0,
    width: w,
    height: h,
    ...extra,
  };
  const paper = paperOf(spec, "label");
  if (paper !== null) outer["backgroundColor"] = paper;
  const { accent } = spec.colors;
  let children: Element[] = [];
  const r = Math.round(Math.min(w, h) * 0.14);
  if (cell.kind === "box" && spec.style === "outlined") {
    children = [
      {
        type: "div",
        props: {
          style: {
            display: "flex",
            flexGrow: 1,
            border: `${strokeOf(spec, "outline")}px solid ${accent}`,
            borderRadius: r,
          },
        },
      },
    ];
  } else if (cell.kind === "box") {
    children = [
      {
        type: "div",
        props: {
          style: { display: "flex", flexGrow: 1, backgroundColor: spec.tint, borderRadius: r },
        },
      },
    ];
  } else if (cell.kind === "card") {
    children = [
      {
        type: "div",
        props: {
          style: {
            display: "flex",
            flexGrow: 1,
            backgroundColor: spec.colors.text,
            borderRadius: r,
          },
        },
      },
      splitLine(spec),
    ];
  } else if (cell.kind === "bar") {
    const fill = Math.round(w * (cell.share ?? 0));
    children = [
      {
        type: "div",
        props: {
          style: {
            display: "flex",
            width: w,
            height: h,
            backgroundColor: spec.tint,
            borderRadius: Math.floor(h / 2),
          },
          children:
            fill > 0
              ? [
                  {
                    type: "div",
                    props: {
                      style: {
                        width: fill,
                        height: h,
                        backgroundColor: accent,
                        borderRadius: Math.floor(h / 2),
                      },
                    },
                  },
                ]
              : [],
        },
      },
    ];
  } else if (cell.kind === "ring") {
    const sw = strokeOf(spec, "ring");
    const c = w / 2;
    const rr = c - sw / 2 - 0.5;
    const share = Math.min(1, Math.max(0, cell.share ?? 0));
    const parts: Element[] = [
      {
        type: "circle",
        props: { cx: c, cy: c, r: rr, fill: "none", stroke: spec.tint, strokeWidth: sw } as never,
      },
    ];
    if (share >= 1) {
      parts.push({
        type: "circle",
        props: { cx: c, cy: c, r: rr, fill: "none", stroke: accent, strokeWidth: sw } as never,
      });
    } else if (share > 0) {
      const a = -Math.PI / 2 + 2 * Math.PI * share;
      const d = `M ${fixed(c)} ${fixed(c - rr)} A ${fixed(rr)} ${fixed(rr)} 0 ${share > 0.5 ? 1 : 0} 1 ${fixed(c + rr * Math.cos(a))} ${fixed(c + rr * Math.sin(a))}`;
      parts.push({
        type: "path",
        props: { d, fill: "none", stroke: accent, strokeWidth: sw } as never,
      });
    }
    children = [
      {
        type: "svg",
        props: { width: w, height: h, viewBox: `0 0 ${w} ${h}`, children: parts } as never,
      },
    ];
  }
  return { type: "div", key: cell.key, props: { style: outer, children } };
}

const isShape = (kind: CellKind) =>
  kind === "box" || kind === "card" || kind === "ring" || kind === "bar";

/** The canvas behind the panel: the look's gradient or picture. */
function backgroundElement(spec: SceneSpec): Element | null {
  const bg = spec.background;
  if (bg === null || spec.transparent) return null;
  const style: Record<string, unknown> = {
    position: "absolute",
    left: 0,
    top: 0,
    width: spec.width,
    height: spec.height,
  };
  if (bg.type === "gradient")
    return {
      type: "div",
      props: {
        style: {
          ...style,
          display: "flex",
          backgroundImage: `linear-gradient(${bg.angle}deg, ${bg.from}, ${bg.to})`,
        },
      },
    };
  return {
    type: "img",
    props: {
      src: bg.src,
      width: spec.width,
      height: spec.height,
      style: { ...style, objectFit: "cover" },
    } as never,
  };
}

/** Words placed on the canvas: a band across the inner width, the text centred in it. */
function wordsElement(spec: SceneSpec, w: PlacedWords): Element {
  const text: Record<string, unknown> = {
    display: "flex",
    alignItems: "center",
    whiteSpace: "pre",
    overflow: "hidden",
    maxWidth: spec.width - 2 * spec.plate.x - 4 * spec.scale,
    fontFamily: w.family,
    fontSize: w.px,
    fontWeight: w.kind === "subheading" ? REGULAR : BOLD,
    color: w.color,
  };
  if (baseDirection(w.text) === "rtl") text["direction"] = "rtl";
  if (w.fill !== null) {
    text["backgroundColor"] = w.fill;
    text["borderRadius"] = Math.round(w.px * 0.4);
    text["padding"] = `0 ${Math.round(w.px * 0.9)}px`;
    text["height"] = w.h;
  }
  return {
    type: "div",
    props: {
      style: {
        position: "absolute",
        left: 0,
        top: w.y,
        width: spec.width,
        height: w.h,
        display: "flex",
        justifyContent: "center",
        alignItems: "center",
      },
      children: [{ type: "div", props: { style: text, children: w.text } }],
    },
  };
}

/** The background: matte outside a rounded panel, the panel's fill and accent border, words. */
export function panelElement(spec: SceneSpec, children: Element[] = []): Element {
  const outer: Record<string, unknown> = {
    display: "flex",
    position: "relative",
    width: spec.width,
    height: spec.height,
    flexShrink: 0,
  };
  const { plate } = spec;
  const inner: Record<string, unknown> = {
    display: "flex",
    position: "absolute",
    left: plate.x,
    top: plate.y,
    width: plate.w,
    height: plate.h,
  };
  if (!spec.transparent) {
    // Outside the rounded corners an email shows the matte (its own background).
    outer["backgroundColor"] = spec.colors.matte;
    inner["backgroundColor"] = spec.colors.background;
  }
  if (spec.border > 0) inner["border"] = `${spec.border}px solid ${spec.colors.accent}`;
  if (spec.radius > 0) inner["borderRadius"] = spec.radius;
  const back = backgroundElement(spec);
  return {
    type: "div",
    key: "panel",
    props: {
      style: outer,
      children: [
        ...(back ? [back] : []),
        { type: "div", props: { style: inner } },
        ...spec.words.map((w) => wordsElement(spec, w)),
        ...children,
      ],
    },
  };
}

/** A cell as it sits on the atlas sheet: sized by its content (shapes by their own size). */
export function cellElement(spec: SceneSpec, cell: CellSpec, margin: number): Element {
  if (isShape(cell.kind)) return shapeElement(spec, cell, { margin });
  return {
    type: "div",
    key: cell.key,
    props: {
      style: { ...cellStyle(spec, cell.kind, cell.text), margin },
      children: cellChildren(spec, cell),
    },
  };
}

/**
 * The atlas sheet: the panel at the top left (unless `withPanel` is false), then every cell
 * with a margin around it, wrapped in rows. Cells are cut out at the boxes satori reports.
 */
export function sheetElement(
  spec: SceneSpec,
  cells: CellSpec[],
  sheetWidth: number,
  withPanel = true,
): Element {
  const margin = 2 * spec.scale;
  return {
    type: "div",
    props: {
      style: { display: "flex", flexDirection: "column", width: sheetWidth },
      children: [
        ...(withPanel ? [panelElement(spec)] : []),
        {
          type: "div",
          props: {
            style: {
              display: "flex",
              flexWrap: "wrap",
              alignItems: "flex-start",
              width: sheetWidth,
              marginTop: margin,
            },
            children: cells.map((cell) => cellElement(spec, cell, margin)),
          },
        },
      ],
    },
  };
}

/** A cell placed on a frame: which cell, where, and the part of it that shows. */
export interface PlacedCell extends Box {
  cell: CellSpec;
}

/** A whole frame as one tree: the panel and every placed cell at its position. */
export function frameElement(spec: SceneSpec, placed: readonly PlacedCell[]): Element {
  return panelElement(
    spec,
    placed.map(({ cell, x, y, w, h }) =>
      isShape(cell.kind)
        ? shapeElement(spec, { ...cell, w, h }, { position: "absolute", left: x, top: y })
        : {
            type: "div",
            props: {
              style: {
                ...cellStyle(spec, cell.kind, cell.text),
                position: "absolute",
                left: x,
                top: y,
                // The measured box includes the padding: without this an ended text, centred in
                // its content box, sat one padding to the right of the atlas's.
                boxSizing: "border-box",
                width: w,
                height: h,
              },
              children: cellChildren(spec, cell),
            },
          },
    ),
  );
}
