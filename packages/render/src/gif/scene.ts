// What an image is made of, as satori element trees. The atlas draws every cell
// once on a sheet; the reference renderer draws whole frames from the very same
// cell styles at the layout's positions, so the two agree pixel for pixel.
import { baseDirection } from "../_bidi";
import type { VariantColors } from "../colors";
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

/** Everything that decides the pixels of one look at one size, fonts included. */
export interface SceneSpec {
  /** Canvas size in device pixels (CSS pixels times scale). */
  width: number;
  height: number;
  scale: 1 | 2;
  colors: VariantColors;
  transparent: boolean;
  panel: "rounded" | "plain";
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
  /** Where text may go: inside the panel and its padding. */
  content: Box;
}

/** The kinds of text cell an image is assembled from. */
export type CellKind = "digit" | "separator" | "label" | "ended";

/** One text cell: its atlas key, kind and text. */
export interface CellSpec {
  key: string;
  kind: CellKind;
  text: string;
}

/** Sizes and boxes of a look at a canvas size; fonts scale with `digitPx`. */
export function sceneSpec(
  // Everything but what is worked out here.
  options: Omit<SceneSpec, "labelPx" | "cellPad" | "border" | "radius" | "content">,
): SceneSpec {
  const { width, height, scale, panel, digitPx, nominalPx } = options;
  const border = panel === "rounded" ? 2 * scale : 0;
  const radius = panel === "rounded" ? Math.min(12 * scale, Math.floor(height / 2)) : 0;
  const padX = Math.max(border + 2 * scale, Math.round(width * 0.04));
  const padY = Math.max(border + 2 * scale, Math.round(height * 0.08));
  return {
    ...options,
    // Labels are 0.3 of the digits but at least 8 CSS px, and shrink with the digits
    // when the row is fitted into a small image.
    labelPx: round2(Math.max(8 * scale, nominalPx * 0.3) * (digitPx / nominalPx)),
    cellPad: Math.max(1, Math.ceil(digitPx / scale / 48)) * scale,
    border,
    radius,
    content: { x: padX, y: padY, w: width - 2 * padX, h: height - 2 * padY },
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
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
  if (!spec.transparent) base["backgroundColor"] = spec.colors.background;
  switch (kind) {
    case "digit":
      return { ...base, fontSize: spec.digitPx, fontWeight: BOLD, color: spec.colors.text };
    case "separator":
      return { ...base, fontSize: spec.digitPx, fontWeight: BOLD, color: spec.colors.accent };
    case "label":
      return { ...base, fontSize: spec.labelPx, fontWeight: REGULAR, color: spec.colors.text };
    case "ended":
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

/** The background: matte outside a rounded panel, the panel's fill and accent border. */
export function panelElement(spec: SceneSpec, children: Element[] = []): Element {
  const outer: Record<string, unknown> = {
    display: "flex",
    position: "relative",
    width: spec.width,
    height: spec.height,
    flexShrink: 0,
  };
  const inner: Record<string, unknown> = { display: "flex", flexGrow: 1 };
  if (!spec.transparent) {
    // Outside the rounded corners an email shows the matte (its own background).
    outer["backgroundColor"] = spec.colors.matte;
    inner["backgroundColor"] = spec.colors.background;
  }
  if (spec.panel === "rounded") {
    inner["border"] = `${spec.border}px solid ${spec.colors.accent}`;
    inner["borderRadius"] = spec.radius;
  }
  return {
    type: "div",
    key: "panel",
    props: { style: outer, children: [{ type: "div", props: { style: inner } }, ...children] },
  };
}

/** A text cell as it sits on the atlas sheet: sized by its content. */
export function cellElement(spec: SceneSpec, cell: CellSpec, margin: number): Element {
  return {
    type: "div",
    key: cell.key,
    props: { style: { ...cellStyle(spec, cell.kind, cell.text), margin }, children: cell.text },
  };
}

/**
 * The atlas sheet: the panel at the top left, then every cell with a margin
 * around it, wrapped in rows. Cells are cut out at the boxes satori reports.
 */
export function sheetElement(spec: SceneSpec, cells: CellSpec[], sheetWidth: number): Element {
  const margin = 2 * spec.scale;
  return {
    type: "div",
    props: {
      style: { display: "flex", flexDirection: "column", width: sheetWidth },
      children: [
        panelElement(spec),
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
export function frameElement(spec: SceneSpec, placed: PlacedCell[]): Element {
  return panelElement(
    spec,
    placed.map(({ cell, x, y, w, h }) => ({
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
        children: cell.text,
      },
    })),
  );
}
