// Where everything goes, in whole device pixels. Pure arithmetic on the cell
// sizes the atlas measured: computing a layout costs microseconds, so it is
// redone for every image (the digit count of the largest unit varies per timer).
import type { TimeUnit } from "@tminus/core";
import type { FrameContent } from "../content";
import type { Box, CellSpec, PlacedCell, SceneSpec } from "./scene";

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
} as const;

/** One shown unit's columns: digit slots and the label centred under them. */
export interface GroupLayout {
  unit: TimeUnit;
  x: number;
  w: number;
  digitsY: number;
  labelY: number;
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
  const groupW = plan.units.map((_, i) => {
    let w = plan.capacity[i]! * slotW;
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
  const rowH = digitH + (labelsShown ? labelH : 0);
  const { content } = spec;
  const x0 = content.x + Math.floor((content.w - rowW) / 2);
  const y0 = content.y + Math.floor((content.h - rowH) / 2);

  const groups: GroupLayout[] = [];
  const separators: Array<{ x: number; y: number }> = [];
  // A colon sits on the x-height, digits reach the cap height: lifting it a little
  // centres it on the digits, as clock faces draw it.
  const lift = Math.round(spec.digitPx * 0.06);
  let x = x0;
  plan.units.forEach((unit, i) => {
    if (i > 0) {
      if (plan.hasSeparator) separators.push({ x: x + gap, y: y0 - lift });
      x += sepSlot;
    }
    groups.push({ unit, x, w: groupW[i]!, digitsY: y0, labelY: y0 + digitH });
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
  const put = (cell: CellSpec, x: number, y: number, h?: number) => {
    const s = sizes.get(cell.key);
    if (!s) throw new Error(`atlas has no cell ${cell.key}`);
    placed.push({ cell, x, y, w: s.w, h: h ?? s.h });
  };
  if (content.ended) {
    if (layout.ended)
      put(
        { key: cellKey.ended, kind: "ended", text: content.text },
        layout.ended.x,
        layout.ended.y,
        layout.ended.h,
      );
    return placed;
  }
  if (separator !== "")
    for (const sep of layout.separators)
      put({ key: cellKey.separator, kind: "separator", text: separator }, sep.x, sep.y);
  content.parts.forEach((part, i) => {
    const group = layout.groups[i]!;
    const n = part.digits.length;
    const start = group.x + Math.floor((group.w - n * layout.slotW) / 2);
    for (let j = 0; j < n; j++) {
      const digit = part.digits[j]!;
      const key = cellKey.digit(digit);
      const w = sizes.get(key)?.w ?? layout.slotW;
      // Proportional digits sit centred in their fixed-width slot.
      const x = start + j * layout.slotW + Math.floor((layout.slotW - w) / 2);
      put({ key, kind: "digit", text: digit }, x, group.digitsY);
    }
    if (part.label !== "") {
      const key = cellKey.label(part.label);
      const w = sizes.get(key)?.w ?? 0;
      put(
        { key, kind: "label", text: part.label },
        group.x + Math.floor((group.w - w) / 2),
        group.labelY,
      );
    }
  });
  return placed;
}
