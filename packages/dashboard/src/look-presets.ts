import type { TimerFormValues } from "./timer-form";

// The builder's built-in looks. Each is a panel with its own opaque background and a border
// in its accent colour, so it reads the same in a light email and in a dark one (mail apps in
// dark mode darken the message, not its images): the text is at least 7:1 on its panel, and
// the panel or its border stands out at 3:1 from a white page and from a dark one
// (unit/dashboard-look-presets.test.ts checks both).

/** A built-in look: the builder's look fields it sets. */
export interface LookPreset {
  id: string;
  name: string;
  /** What it is for, in a few words. */
  about: string;
  look: Pick<
    TimerFormValues,
    "theme" | "background_color" | "text_color" | "accent_color" | "font" | "panel"
  >;
}

/** The built-in looks, in the order the builder offers them. */
export const LOOK_PRESETS: readonly LookPreset[] = [
  {
    id: "ink",
    name: "Ink",
    about: "dark navy, sky-blue edge: calm, any brand",
    look: {
      theme: "dark",
      background_color: "#0F172A",
      text_color: "#F8FAFC",
      accent_color: "#38BDF8",
      font: "sans",
      panel: "rounded",
    },
  },
  {
    id: "sale",
    name: "Sale red",
    about: "deep red, pink edge: urgency",
    look: {
      theme: "dark",
      background_color: "#7F1D1D",
      text_color: "#FFFFFF",
      accent_color: "#FCA5A5",
      font: "sans",
      panel: "rounded",
    },
  },
  {
    id: "forest",
    name: "Forest",
    about: "deep green, mint edge: fresh, eco",
    look: {
      theme: "dark",
      background_color: "#14532D",
      text_color: "#F0FDF4",
      accent_color: "#86EFAC",
      font: "sans",
      panel: "rounded",
    },
  },
  {
    id: "paper",
    name: "Paper",
    about: "warm cream, brown edge: editorial, serif",
    look: {
      theme: "light",
      background_color: "#FEF3C7",
      text_color: "#422006",
      accent_color: "#92400E",
      font: "serif",
      panel: "rounded",
    },
  },
  {
    id: "mono",
    name: "Terminal",
    about: "black, amber digits: tech launches",
    look: {
      theme: "dark",
      background_color: "#000000",
      text_color: "#FBBF24",
      accent_color: "#D97706",
      font: "mono",
      panel: "rounded",
    },
  },
];

/** The preset named `id`, or null. */
export function lookPreset(id: string | null): LookPreset | null {
  return LOOK_PRESETS.find((p) => p.id === id) ?? null;
}

/** `values` with the preset's look fields. */
export function withPreset(values: TimerFormValues, preset: LookPreset): TimerFormValues {
  return { ...values, ...preset.look };
}
