import { describe, expect, it } from "vitest";
import { LOOK_PRESETS } from "../../src/look-presets";

// The built-in looks must read in a light email and in a dark one: WCAG contrast of the
// digits on their panel, and of the panel (or its border) against the page around the image.

/** WCAG 2 relative luminance of a `#RRGGBB` colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two colours, 1 to 21. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** A light email's page, and the dark page of Gmail and Apple Mail in dark mode. */
const PAGES = { light: "#FFFFFF", dark: "#1E1E1E" };

describe("the built-in looks", () => {
  it("measures contrast as WCAG does", () => {
    expect(contrast("#000000", "#FFFFFF")).toBeCloseTo(21, 5);
    expect(contrast("#767676", "#FFFFFF")).toBeCloseTo(4.54, 2);
  });

  for (const preset of LOOK_PRESETS) {
    it(`${preset.name}: digits at 7:1 on the panel, the panel seen on light and dark pages`, () => {
      const { background_color: bg, text_color: text, accent_color: edge } = preset.look;
      expect(contrast(text, bg)).toBeGreaterThanOrEqual(7);
      for (const [name, pageColour] of Object.entries(PAGES)) {
        const seen = Math.max(contrast(bg, pageColour), contrast(edge, pageColour));
        expect(seen, `${preset.name} on a ${name} page`).toBeGreaterThanOrEqual(3);
      }
    });
  }

  it("has unique ids and names", () => {
    expect(new Set(LOOK_PRESETS.map((p) => p.id)).size).toBe(LOOK_PRESETS.length);
    expect(new Set(LOOK_PRESETS.map((p) => p.name)).size).toBe(LOOK_PRESETS.length);
  });
});
