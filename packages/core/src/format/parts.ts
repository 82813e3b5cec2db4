import type { TimeUnit } from "../time/units";
import type { RemainingPart } from "./split";

/** A part with its display text. */
export interface FormattedPart {
  unit: TimeUnit;
  value: number;
  text: string;
}

/** How {@link formatParts} writes numbers. */
export interface FormatPartsOptions {
  /** Zero-pad hours, minutes and seconds to two digits ("07"); days never are. */
  pad: boolean;
}

/**
 * Display text for each part. Digits are ASCII whatever the locale: the
 * renderers draw them from one glyph set, and a clock reads the same everywhere.
 * @example formatParts([{ unit: "hours", value: 7 }], { pad: true }) // [{ unit: "hours", value: 7, text: "07" }]
 */
export function formatParts(
  parts: readonly RemainingPart[],
  options: FormatPartsOptions,
): FormattedPart[] {
  return parts.map(({ unit, value }) => {
    const digits = String(value);
    const text = options.pad && unit !== "days" ? digits.padStart(2, "0") : digits;
    return { unit, value, text };
  });
}
