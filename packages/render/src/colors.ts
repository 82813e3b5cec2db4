import type { Look } from "@tminus/core";

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
 * Colours of `look` for `variant`. A look without `dark` colours (null: "no
 * switch") draws the same in both variants. The matte follows the dark background
 * unless the look chose a matte of its own (one different from its background),
 * since a light matte would fringe dark-mode text.
 */
export function variantColors(look: Look, variant: Variant): VariantColors {
  const light: VariantColors = {
    background: look.background_color,
    text: look.text_color,
    accent: look.accent_color,
    matte: look.matte_color,
  };
  if (variant === "light" || look.dark === null) return light;
  const ownMatte = look.matte_color !== look.background_color;
  return {
    background: look.dark.background_color,
    text: look.dark.text_color,
    accent: look.dark.accent_color,
    matte: ownMatte ? look.matte_color : look.dark.background_color,
  };
}

/** `#RRGGBB` (core's colour format, validated before it gets here) as [r, g, b]. */
export function parseHex(color: string): [number, number, number] {
  const n = Number.parseInt(color.slice(1, 7), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
