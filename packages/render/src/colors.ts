import { DARK_PALETTE, type Look } from "@tminus/core";

/** Light (the look's own colours) or dark (its `dark` colours). */
export type Variant = "light" | "dark";

/** The colours one rendering uses, after the variant is applied. */
export interface VariantColors {
  background: string;
  text: string;
  accent: string;
  /** What GIF edges are blended against when the look is transparent. */
  matte: string;
}

/**
 * Colours of `look` for `variant`. The dark variant uses the look's `dark` colours;
 * a look without them (`dark: null`) that already reads as dark (text lighter than
 * its background) keeps its own, any other gets the dark palette: whoever asks for
 * the dark variant gets a dark image, never the light one again. The matte follows
 * the dark background unless the look chose a matte of its own (one different from
 * its background), since a light matte would fringe dark-mode text.
 */
export function variantColors(look: Look, variant: Variant): VariantColors {
  const light: VariantColors = {
    background: look.background_color,
    text: look.text_color,
    accent: look.accent_color,
    matte: look.matte_color,
  };
  if (variant === "light") return light;
  const dark = look.dark ?? (readsAsDark(look) ? null : DARK_PALETTE);
  if (dark === null) return light;
  const ownMatte = look.matte_color !== look.background_color;
  return {
    background: dark.background_color,
    text: dark.text_color,
    accent: dark.accent_color,
    matte: ownMatte ? look.matte_color : dark.background_color,
  };
}

/** Light text on a darker background: the look is a dark one already. */
function readsAsDark(look: Look): boolean {
  return luminance(look.text_color) > luminance(look.background_color);
}

/** WCAG relative luminance of a `#RRGGBB` colour, 0 (black) to 1 (white). */
export function luminance(color: string): number {
  const [r, g, b] = parseHex(color).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** `#RRGGBB` (core's colour format, validated before it gets here) as [r, g, b]. */
export function parseHex(color: string): [number, number, number] {
  const n = Number.parseInt(color.slice(1, 7), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** `a` laid over `b` at `share` (0..1), as `#RRGGBB`: the styles' tinted cards and tracks. */
export function mixHex(a: string, b: string, share: number): string {
  const x = parseHex(a);
  const y = parseHex(b);
  const c = x.map((v, i) => Math.round(v * share + y[i]! * (1 - share)));
  return `#${c
    .map((v) => v.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase()}`;
}
