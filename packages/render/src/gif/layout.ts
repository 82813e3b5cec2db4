// Where everything goes, in whole device pixels. Pure arithmetic on the cell
// sizes the atlas measured; the renderer keeps each atlas's layouts, one per digit
// count of the largest unit and number of units shown (image.ts).
import type { LookStyle, TimeUnit } from "@tminus/core";
import { unitStep, unitSteps } from "../_shares";
import type { FrameContent } from "../content";
import { type Box, type CellSpec, type PlacedCell, type SceneSpec, strokeOf } from "./scene";

/** Width and height of a cell as cut from the atlas. */
export interface CellSize {
  w: number;
  h: number;
}

/** The atlas keys of the cells: digits, separator, labels by text, ended text. */
export const cellKey = {
  digit: (d: string) => `d${d}`,
  separator: "sep",
  label: (text: string) => `l:${text}`,
  ended: "end",
  box: (cap: number) => `b:${cap}`,
  card: "c",
  ring: (cap: number, steps: number, k: number) => `r:${cap}:${steps}:${k}`,
  bar: (cap: number, steps: number, k: number) => `g:${cap}:${steps}:${k}`,
} as const;

/** Styles that draw a shape per unit (or per digit): their row is laid out by {@link shapeGeometry}. */
export const SHAPED: ReadonlySet<LookStyle> = new Set([
  "boxes",
  "outlined",
  "flip",
  "circles",
  "bar",
]);

/** A unit's block in a shaped style: its size and where its digit slots start in it. */
export interface ShapeGeometry {
  w: number;
  h: number;
  /** Where the digit slots start, relative to the block. */
  dx: number;
  dy: number;
  /** Flip cards: one per digit, this size, this far apart. */
  card: { w: number; h: number; gap: number } | null;
  /** Rings and bars: their size (a bar lies under the digits, at `barY`). */
  barY: number;
  barH: number;
  /** Gap between the block and the label under it. */
  labelGap: number;
}

/** Geometry of a unit block with `cap` digit slots `slotW` wide and `digitH` tall. */
export function shapeGeometry(
  spec: SceneSpec,
  slotW: number,
  digitH: number,
  cap: number,
): ShapeGeometry {
  const px = spec.digitPx;
  const labelGap = Math.round(px * 0.06);
  const digitsW = cap * slotW;
  const none = { card: null, barY: 0, barH: 0, labelGap };
  switch (spec.style) {
    case "boxes":
    case "outlined": {
      const bx = Math.round(px * 0.16);
      const by =
        Math.round(px * 0.06) + (spec.style === "outlined" ? strokeOf(spec, "outline") : 0);
      return { ...none, w: digitsW + 2 * bx, h: digitH + 2 * by, dx: bx, dy: by };
    }
    case "flip": {
      const fx = Math.round(px * 0.08);
      const fy = Math.round(px * 0.04);
      const card = {
        w: slotW + 2 * fx,
        h: digitH + 2 * fy,
        gap: Math.max(spec.scale, Math.round(px * 0.06)),
      };
      return { ...none, w: cap * card.w + (cap - 1) * card.gap, h: card.h, dx: fx, dy: fy, card };
    }
    case "circles": {
      // The digit cells are opaque rectangles: they must stay inside the ring's hole.
      const sw = strokeOf(spec, "ring");
      const d = 2 * Math.ceil(Math.hypot(digitsW / 2, digitH / 2)) + 2 * sw + 2;
      return {
        ...none,
        w: d,
        h: d,
        dx: Math.floor((d - digitsW) / 2),
        dy: Math.floor((d - digitH) / 2),
      };
    }
    case "bar": {
      const barH = Math.max(2 * spec.scale, Math.round(px * 0.08));
      const gap = Math.round(px * 0.06);
      return {
        ...none,
        w: digitsW,
        h: digitH + gap + barH,
        dx: 0,
        dy: 0,
        barY: digitH + gap,
        barH,
      };
    }
    default:
      return { ...none, w: digitsW, h: digitH, dx: 0, dy: 0, labelGap: 0 };
  }
}

/** One shown unit's columns: digit slots and the label centred under them. */
export interface GroupLayout {
  unit: TimeUnit;
  x: number;
  w: number;
  digitsY: number;
  labelY: number;
  /** Digit slots. */
  cap: number;
  /** The unit's block (shaped styles: its box, ring, cards or bar). */
  blockX: number;
  blockY: number;
  shape: ShapeGeometry;
}

/** Positions of everything one image shows. */
export interface Layout {
  /** false when the row is larger than the content box at this font size. */
  fits: boolean;
  rowW: number;
  rowH: number;
  /** Width of one digit slot: the widest digit, so numbers never jiggle. */
  slotW: number;
  groups: GroupLayout[];
  separators: Array<{ x: number; y: number }>;
  /** Where the ended text goes (cropped to the content box), or null when it is empty. */
  ended: Box | null;
  style: LookStyle;
}

/** What the layout needs to know about the shown units. */
export interface RowPlan {
  units: readonly TimeUnit[];
  /** Digit slots per unit: 2 for bounded units, the first frame's digit count for the largest. */
  capacity: readonly number[];
  /** Label forms per unit (empty when labels are hidden). */
  labels: ReadonlyArray<readonly string[]>;
  hasSeparator: boolean;
}

/**
 * Lays the row out: unit groups as wide as their digits or widest label,
 * separators between them, all centred in the content box.
 */
export function planLayout(
  spec: SceneSpec,
  sizes: ReadonlyMap<string, CellSize>,
  plan: RowPlan,
): Layout {
  const size = (key: string): CellSize => {
    const found = sizes.get(key);
    if (!found) throw new Error(`atlas has no cell ${key}`);
    return found;
  };
  let slotW = 0;
  let digitH = 0;
  for (let d = 0; d < 10; d++) {
    const s = size(cellKey.digit(String(d)));
    slotW = Math.max(slotW, s.w);
    digitH = Math.max(digitH, s.h);
  }
  const labelsShown = plan.labels.some((forms) => forms.length > 0);
  let labelH = 0;
  const shapes = plan.units.map((_, i) => shapeGeometry(spec, slotW, digitH, plan.capacity[i]!));
  const blockH = Math.max(...shapes.map((g) => g.h));
  const labelGap = shapes[0]!.labelGap;
  const groupW = plan.units.map((_, i) => {
    let w = shapes[i]!.w;
    for (const text of plan.labels[i] ?? []) {
      const s = size(cellKey.label(text));
      w = Math.max(w, s.w);
      labelH = Math.max(labelH, s.h);
    }
    return w;
  });
  const gap = Math.round(spec.digitPx * 0.12);
  const sepW = plan.hasSeparator ? size(cellKey.separator).w : 0;
  const sepSlot = plan.hasSeparator ? sepW + 2 * gap : Math.round(spec.digitPx * 0.4);
  const rowW = groupW.reduce((a, b) => a + b, 0) + (plan.units.length - 1) * sepSlot;
  const rowH = blockH + (labelsShown ? labelGap + labelH : 0);
  const { content } = spec;
  const x0 = content.x + Math.floor((content.w - rowW) / 2);
  const y0 = content.y + Math.floor((content.h - rowH) / 2);

  const groups: GroupLayout[] = [];
  const separators: Array<{ x: number; y: number }> = [];
  // A colon sits on the x-height, digits reach the cap height: lifting it a little
  // centres it on the digits, as clock faces draw it.
  const lift = Math.round(spec.digitPx * 0.06);
  let x = x0;
  const digitsY = y0 + Math.floor((blockH - digitH) / 2);
  plan.units.forEach((unit, i) => {
    if (i > 0) {
      if (plan.hasSeparator) separators.push({ x: x + gap, y: digitsY - lift });
      x += sepSlot;
    }
    const shape = shapes[i]!;
    const blockY = y0 + Math.floor((blockH - shape.h) / 2);
    groups.push({
      unit,
      x,
      w: groupW[i]!,
      digitsY: blockY + shape.dy,
      labelY: y0 + blockH + labelGap,
      cap: plan.capacity[i]!,
      blockX: x + Math.floor((groupW[i]! - shape.w) / 2),
      blockY,
      shape,
    });
    x += groupW[i]!;
  });

  let ended: Box | null = null;
  const endedSize = sizes.get(cellKey.ended);
  if (endedSize) {
    const h = Math.min(endedSize.h, content.h);
    ended = {
      x: content.x,
      y: content.y + Math.floor((content.h - h) / 2),
      w: endedSize.w,
      h,
    };
  }
  return {
    fits: rowW <= content.w && rowH <= content.h,
    rowW,
    rowH,
    slotW,
    groups,
    separators,
    ended,
    style: spec.style,
  };
}

/**
 * The cells of one frame at their positions. A number with fewer digits than
 * its slots (hours past 99 falling to 99, or unpadded 9) is centred in them.
 */
export function placeCells(
  layout: Layout,
  sizes: ReadonlyMap<string, CellSize>,
  content: FrameContent,
  separator: string,
): PlacedCell[] {
  const placed: PlacedCell[] = [];
  const cells = internedCells(sizes);
  const put = (cell: CellSpec, x: number, y: number, h?: number) => {
    const s = sizes.get(cell.key);
    if (!s) throw new Error(`atlas has no cell ${cell.key}`);
    placed.push({ cell, x, y, w: s.w, h: h ?? s.h });
  };
  if (content.ended) {
    if (layout.ended)
      put(
        cells.of("ended", content.text, () => cellKey.ended),
        layout.ended.x,
        layout.ended.y,
        layout.ended.h,
      );
    return placed;
  }
  if (separator !== "") {
    const cell = cells.of("separator", separator, () => cellKey.separator);
    for (const sep of layout.separators) put(cell, sep.x, sep.y);
  }
  const shaped = SHAPED.has(layout.style);
  const parts = content.parts;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const group = layout.groups[i]!;
    const n = part.digits.length;
    const { shape } = group;
    let start = group.x + Math.floor((group.w - n * layout.slotW) / 2);
    let pitch = layout.slotW;
    if (shaped) {
      // Shapes first: the digits are drawn on them.
      const steps = unitSteps(part.unit);
      const k = unitStep(part.unit, Number(part.digits));
      const share = k / steps;
      const bx = group.blockX;
      const by = group.blockY;
      const cap = group.cap;
      if (layout.style === "boxes" || layout.style === "outlined")
        put(
          cells.of("box", cap, () => cellKey.box(cap)),
          bx,
          by,
        );
      else if (layout.style === "circles") {
        // A number names the step: no key string built per ring per frame.
        const id = (cap * 4096 + steps) * 4096 + k;
        put(
          cells.of("ring", id, () => cellKey.ring(cap, steps, k), share),
          bx,
          by,
        );
      } else if (layout.style === "bar") {
        const id = (cap * 4096 + steps) * 4096 + k;
        put(
          cells.of("bar", id, () => cellKey.bar(cap, steps, k), share),
          bx,
          by + shape.barY,
        );
      }
      const digitsW = group.cap * layout.slotW;
      start = bx + shape.dx + Math.floor((digitsW - n * layout.slotW) / 2);
      if (shape.card) {
        // One card per digit shown, centred in the block.
        pitch = shape.card.w + shape.card.gap;
        const x0 = bx + Math.floor((shape.w - (n * pitch - shape.card.gap)) / 2);
        const card = cells.of("card", 0, () => cellKey.card);
        for (let j = 0; j < n; j++) put(card, x0 + j * pitch, by);
        start = x0 + shape.dx;
      }
    }
    for (let j = 0; j < n; j++) {
      const digit = part.digits[j]!;
      const cell = cells.digit(digit);
      const w = sizes.get(cell.key)?.w ?? layout.slotW;
      // Proportional digits sit centred in their fixed-width slot.
      const x = start + j * pitch + Math.floor((layout.slotW - w) / 2);
      put(cell, x, group.digitsY);
    }
    if (part.label !== "") {
      const label = part.label;
      const cell = cells.of("label", label, () => cellKey.label(label));
      const w = sizes.get(cell.key)?.w ?? 0;
      put(cell, group.x + Math.floor((group.w - w) / 2), group.labelY);
    }
  }
  return placed;
}

/** An atlas's cell specs, made once each: a frame's placement then allocates only its boxes. */
interface InternedCells {
  digit(d: string): CellSpec;
  /** A cell of `kind` whose atlas key is `key()`, named here by `id` (no string built per frame). */
  of(kind: CellSpec["kind"], id: string | number, key: () => string, share?: number): CellSpec;
}

// Per atlas (its sizes map stands for it): dropped with the atlas.
const interned = new WeakMap<ReadonlyMap<string, CellSize>, InternedCells>();

function internedCells(sizes: ReadonlyMap<string, CellSize>): InternedCells {
  let found = interned.get(sizes);
  if (found) return found;
  const byKind = new Map<CellSpec["kind"], Map<string | number, CellSpec>>();
  const digits = new Map<string, CellSpec>();
  found = {
    // Digits by their one character (V8 keeps one-character strings unique).
    digit(d) {
      let cell = digits.get(d);
      if (!cell) {
        cell = { key: cellKey.digit(d), kind: "digit", text: d };
        digits.set(d, cell);
      }
      return cell;
    },
    of(kind, id, key, share) {
      let byId = byKind.get(kind);
      if (!byId) {
        byId = new Map();
        byKind.set(kind, byId);
      }
      let cell = byId.get(id);
      if (!cell) {
        const text = typeof id === "string" && TEXT_KINDS.has(kind) ? id : "";
        cell = share === undefined ? { key: key(), kind, text } : { key: key(), kind, text, share };
        byId.set(id, cell);
      }
      return cell;
    },
  };
  interned.set(sizes, found);
  return found;
}

// Kinds whose cell draws a text: their id is that text.
const TEXT_KINDS: ReadonlySet<CellSpec["kind"]> = new Set(["ended", "separator", "label"]);
