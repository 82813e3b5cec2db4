import type { TimerFormValues } from "./timer-form";

// The gallery's ready looks: combinations of the styles, backgrounds, words and colours, each
// a starting point the builder fills in. The digits sit on a surface of their own (the panel,
// a card, a flip card) at 7:1 at least; words are at 4.5:1 on whatever is behind them; and
// the image's edge (its fill, or the accent border of a bordered style) stands out at 3:1 from
// a white email and from the dark page of mail apps in dark mode (they darken the message
// around an image, not the image), except for the few light looks made to blend into a white
// email. unit/dashboard-look-presets.test.ts
// checks all of it.

/** The builder's look fields a ready look always sets. */
type BaseFields = "theme" | "background_color" | "text_color" | "accent_color" | "font" | "style";

/** What a ready look may add: a background, words, their fonts, sizes and colours. */
type ExtraFields =
  | "background_kind"
  | "gradient_from"
  | "gradient_to"
  | "gradient_angle"
  | "heading_text"
  | "heading_font"
  | "heading_size"
  | "heading_color"
  | "subheading_text"
  | "subheading_font"
  | "subheading_size"
  | "subheading_color"
  | "button_label"
  | "button_font"
  | "button_size"
  | "button_color"
  | "button_background";

/** A ready look: the builder's look fields it sets. */
export interface LookPreset {
  id: string;
  name: string;
  /** What it is for, in a few words. */
  about: string;
  /**
   * `seen`: the image's edge stands out from a white email and a dark-mode one. `blends`: its
   * fill is a near-white meant to blend into a white email; on a dark-mode page it shows as a
   * light card, which stands out there.
   */
  edge: "seen" | "blends";
  look: Pick<TimerFormValues, BaseFields> & Partial<Pick<TimerFormValues, ExtraFields>>;
}

/** The ready looks, in the order the gallery shows them. */
export const LOOK_PRESETS: readonly LookPreset[] = [
  {
    id: "ink",
    name: "Ink",
    about: "dark navy, sky-blue edge: calm, any brand",
    edge: "seen",
    look: {
      theme: "dark",
      background_color: "#0F172A",
      text_color: "#F8FAFC",
      accent_color: "#38BDF8",
      font: "sans",
      style: "rounded",
    },
  },
  {
    id: "sale",
    name: "Sale red",
    about: "deep red, a heading and a button: urgency",
    edge: "seen",
    look: {
      theme: "dark",
      background_color: "#7F1D1D",
      text_color: "#FFFFFF",
      accent_color: "#FCA5A5",
      font: "sans",
      style: "rounded",
      heading_text: "Sale ends in",
      button_label: "Shop the sale",
    },
  },
  {
    id: "forest",
    name: "Forest",
    about: "deep green to leaf green, a ring per unit: fresh, eco",
    edge: "seen",
    look: {
      theme: "dark",
      background_color: "#14532D",
      text_color: "#F0FDF4",
      accent_color: "#86EFAC",
      font: "sans",
      style: "circles",
      background_kind: "gradient",
      gradient_from: "#14532D",
      gradient_to: "#15803D",
      gradient_angle: "180",
      subheading_text: "Free shipping until Sunday",
    },
  },
  {
    id: "paper",
    name: "Paper",
    about: "warm cream, brown edge, a serif heading: editorial",
    edge: "seen",
    look: {
      theme: "light",
      background_color: "#FEF3C7",
      text_color: "#422006",
      accent_color: "#92400E",
      font: "serif",
      style: "rounded",
      heading_text: "The spring edition closes in",
      heading_font: "serif",
    },
  },
  {
    id: "mono",
    name: "Terminal",
    about: "black, amber digits: tech launches",
    edge: "seen",
    look: {
      theme: "dark",
      background_color: "#000000",
      text_color: "#FBBF24",
      accent_color: "#D97706",
      font: "mono",
      style: "rounded",
    },
  },
  {
    id: "flip",
    name: "Flip clock",
    about: "white flip cards, midnight to blue: events, doors opening",
    edge: "seen",
    look: {
      theme: "dark",
      background_color: "#111827",
      text_color: "#F9FAFB",
      accent_color: "#F59E0B",
      font: "sans",
      style: "flip",
      background_kind: "gradient",
      gradient_from: "#111827",
      gradient_to: "#2563EB",
      gradient_angle: "180",
      heading_text: "Doors open in",
    },
  },
  {
    id: "launch",
    name: "Launch night",
    about: "violet gradient, rings, a button: product launches",
    edge: "seen",
    look: {
      theme: "dark",
      background_color: "#1E1B4B",
      text_color: "#FFFFFF",
      accent_color: "#A78BFA",
      font: "sans",
      style: "circles",
      background_kind: "gradient",
      gradient_from: "#312E81",
      gradient_to: "#9333EA",
      gradient_angle: "135",
      heading_text: "Launching in",
      button_label: "Get notified",
    },
  },
  {
    id: "last-call",
    name: "Last call",
    about: "slate to burnt orange, bars that run down: last hours",
    edge: "seen",
    look: {
      theme: "dark",
      background_color: "#1F2937",
      text_color: "#FFFFFF",
      accent_color: "#F59E0B",
      font: "sans",
      style: "bar",
      background_kind: "gradient",
      gradient_from: "#1F2937",
      gradient_to: "#C2410C",
      gradient_angle: "180",
      subheading_text: "Order by midnight, it ships tomorrow",
    },
  },
  {
    id: "quiet",
    name: "Quiet",
    about: "digits and labels only, on white: for light emails",
    edge: "blends",
    look: {
      theme: "light",
      background_color: "#FFFFFF",
      text_color: "#111827",
      accent_color: "#4B5563",
      font: "sans",
      style: "minimal",
      heading_text: "Offer ends in",
    },
  },
  {
    id: "mint",
    name: "Mint cards",
    about: "pale mint cards, a green button: sign-ups",
    edge: "blends",
    look: {
      theme: "light",
      background_color: "#ECFDF5",
      text_color: "#064E3B",
      accent_color: "#059669",
      font: "sans",
      style: "boxes",
      button_label: "Save my seat",
      button_color: "#FFFFFF",
      button_background: "#047857",
    },
  },
  {
    id: "sunset",
    name: "Sunset",
    about: "rust-to-plum gradient, cream panel: summer sales",
    edge: "seen",
    look: {
      theme: "light",
      background_color: "#FFF7ED",
      text_color: "#431407",
      accent_color: "#C2410C",
      font: "sans",
      style: "rounded",
      background_kind: "gradient",
      gradient_from: "#9A3412",
      gradient_to: "#831843",
      gradient_angle: "135",
      heading_text: "Summer sale ends in",
      heading_color: "#FFFFFF",
      button_label: "Shop now",
      button_color: "#9A3412",
      button_background: "#FFF7ED",
    },
  },
  {
    id: "ocean",
    name: "Ocean",
    about: "deep blue to teal, outlined units: tickets, travel",
    edge: "seen",
    look: {
      theme: "dark",
      background_color: "#0C4A6E",
      text_color: "#F0F9FF",
      accent_color: "#7DD3FC",
      font: "sans",
      style: "outlined",
      background_kind: "gradient",
      gradient_from: "#0C4A6E",
      gradient_to: "#0E7490",
      gradient_angle: "90",
      subheading_text: "Tickets go on sale at noon",
    },
  },
  {
    id: "holiday",
    name: "Holiday",
    about: "pine gradient, white flip cards, serif: gift deadlines",
    edge: "seen",
    look: {
      theme: "dark",
      background_color: "#7F1D1D",
      text_color: "#FFFFFF",
      accent_color: "#FECACA",
      font: "serif",
      style: "flip",
      background_kind: "gradient",
      gradient_from: "#15803D",
      gradient_to: "#14532D",
      gradient_angle: "180",
      heading_text: "Order for Christmas delivery in",
      heading_font: "serif",
      button_label: "Shop gifts",
      button_color: "#7F1D1D",
      button_background: "#FFFFFF",
    },
  },
  {
    id: "letter",
    name: "Newsletter",
    about: "a plain slate panel on near-white: for light emails",
    edge: "blends",
    look: {
      theme: "light",
      background_color: "#F8FAFC",
      text_color: "#0F172A",
      accent_color: "#475569",
      font: "serif",
      style: "plain",
      subheading_text: "Until the doors close on Friday",
      subheading_font: "serif",
      subheading_color: "#334155",
    },
  },
  {
    id: "early-bird",
    name: "Early bird",
    about: "white, blue bars, a blue button: for light emails",
    edge: "blends",
    look: {
      theme: "light",
      background_color: "#FFFFFF",
      text_color: "#1E3A8A",
      accent_color: "#2563EB",
      font: "sans",
      style: "bar",
      heading_text: "Early-bird price ends in",
      button_label: "Book now",
      button_color: "#FFFFFF",
      button_background: "#1D4ED8",
    },
  },
];

/** The preset named `id`, or null. */
export function lookPreset(id: string | null): LookPreset | null {
  return LOOK_PRESETS.find((p) => p.id === id) ?? null;
}

/** `values` with the preset's look fields (its words, or none; its background, or none). */
export function withPreset(values: TimerFormValues, preset: LookPreset): TimerFormValues {
  return {
    ...values,
    background_kind: "colour",
    heading_text: "",
    subheading_text: "",
    button_label: "",
    ...preset.look,
  };
}
