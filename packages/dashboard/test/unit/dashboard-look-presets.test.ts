import { LOOK_STYLES, validateTimerCreate } from "@tminus/core";
import { describe, expect, it } from "vitest";
import { LOOK_PRESETS, type LookPreset, withPreset } from "../../src/look-presets";
import { defaultFormValues, timerBodyOf } from "../../src/timer-form";

// The gallery's ready looks must read in a light email and in a dark one: WCAG contrast of the
// digits on the surface they are drawn on, of words on what is behind them, and of the image's
// edge against the page around it; and the API must take every one of them.

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

/** `share` of `over` laid on `under`, as the boxes style tints its cards (18 % accent). */
function mix(over: string, under: string, share: number): string {
  const channel = (hex: string, i: number) => Number.parseInt(hex.slice(i, i + 2), 16);
  const out = [1, 3, 5].map((i) =>
    Math.round(channel(over, i) * share + channel(under, i) * (1 - share)),
  );
  return `#${out.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/** A light email's page, and the dark page of Gmail and Apple Mail in dark mode. */
const PAGES = { light: "#FFFFFF", dark: "#1E1E1E" };

/** The colours at the image's edge: the gradient's ends, or the fill; and the border, if drawn. */
function edgeColours(p: LookPreset): string[] {
  const l = p.look;
  const fill =
    l.background_kind === "gradient" ? [l.gradient_from!, l.gradient_to!] : [l.background_color];
  // Of the styles, only rounded draws a border round the image, in the accent colour.
  return l.style === "rounded" ? [...fill, l.accent_color] : fill;
}

/** What words above and below the countdown are drawn on: the gradient's ends, or the fill. */
function behindWords(p: LookPreset): string[] {
  const l = p.look;
  return l.background_kind === "gradient"
    ? [l.gradient_from!, l.gradient_to!]
    : [l.background_color];
}

describe("the gallery's ready looks", () => {
  it("measures contrast as WCAG does", () => {
    expect(contrast("#000000", "#FFFFFF")).toBeCloseTo(21, 5);
    expect(contrast("#767676", "#FFFFFF")).toBeCloseTo(4.54, 2);
    expect(mix("#FFFFFF", "#000000", 0.5)).toBe("#808080");
  });

  it("offers at least 12, with every style, gradients, headings, lines below and buttons", () => {
    expect(LOOK_PRESETS.length).toBeGreaterThanOrEqual(12);
    const styles = new Set(LOOK_PRESETS.map((p) => p.look.style));
    expect([...styles].sort()).toEqual([...LOOK_STYLES].sort());
    const some = (f: (p: LookPreset) => unknown) => LOOK_PRESETS.some(f);
    expect(some((p) => p.look.background_kind === "gradient")).toBe(true);
    expect(some((p) => p.look.heading_text)).toBe(true);
    expect(some((p) => p.look.subheading_text)).toBe(true);
    expect(some((p) => p.look.button_label)).toBe(true);
    expect(new Set(LOOK_PRESETS.map((p) => p.id)).size).toBe(LOOK_PRESETS.length);
    expect(new Set(LOOK_PRESETS.map((p) => p.name)).size).toBe(LOOK_PRESETS.length);
  });

  for (const preset of LOOK_PRESETS) {
    const l = preset.look;
    it(`${preset.name}: the API takes it, with its style, background and words`, () => {
      const checked = validateTimerCreate(
        timerBodyOf({ ...withPreset(defaultFormValues(0), preset), name: preset.name }),
      );
      expect(checked.ok, JSON.stringify(checked.ok ? null : checked.issues)).toBe(true);
      if (!checked.ok) return;
      const look = checked.value.look;
      expect(look.style).toBe(l.style);
      expect(look.background?.type ?? "colour").toBe(l.background_kind ?? "colour");
      expect(look.heading?.text ?? "").toBe(l.heading_text ?? "");
      expect(look.subheading?.text ?? "").toBe(l.subheading_text ?? "");
      expect(look.button?.label ?? "").toBe(l.button_label ?? "");
    });

    it(`${preset.name}: digits at 7:1 on their surface, words at 4.5:1, seen on its pages`, () => {
      // Boxes draw the digits on a card tinted with the accent; flip cards swap the colours
      // (the same ratio); the others on the panel's colour.
      const surface =
        l.style === "boxes" ? mix(l.accent_color, l.background_color, 0.18) : l.background_color;
      expect(contrast(l.text_color, surface)).toBeGreaterThanOrEqual(7);
      for (const [kind, colour] of [
        ["heading", l.heading_text ? (l.heading_color ?? l.text_color) : null],
        ["line below", l.subheading_text ? (l.subheading_color ?? l.text_color) : null],
      ] as const) {
        if (!colour) continue;
        for (const behind of behindWords(preset)) {
          expect(contrast(colour, behind), `${kind} on ${behind}`).toBeGreaterThanOrEqual(4.5);
        }
      }
      if (l.button_label) {
        const label = l.button_color || l.background_color;
        const fill = l.button_background || l.accent_color;
        expect(contrast(label, fill), "the button's label").toBeGreaterThanOrEqual(4.5);
      }
      const pages = preset.edge === "seen" ? Object.entries(PAGES) : [["dark", PAGES.dark]];
      for (const [name, pageColour] of pages) {
        const seen = Math.max(...edgeColours(preset).map((c) => contrast(c, pageColour!)));
        expect(seen, `${preset.name} on a ${name} page`).toBeGreaterThanOrEqual(3);
      }
      if (preset.edge === "blends") expect(luminance(l.background_color)).toBeGreaterThan(0.85);
    });
  }
});
