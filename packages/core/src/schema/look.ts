// A timer's look: everything the renderers need to draw it. Input fields are all
// optional; the output is complete, so renderers never re-apply defaults.
import { z } from "zod";
import { TIME_UNITS, type TimeUnit, unitRank } from "../time/units";
import { hexColor, httpsLink, webUrl } from "./fields";

/** Colours of one palette. */
export interface LookColors {
  background_color: string;
  text_color: string;
  accent_color: string;
}

// Colours a field takes from the chosen theme when it is not given explicitly.
const PALETTES: Readonly<Record<"light" | "dark", LookColors>> = {
  light: { background_color: "#FFFFFF", text_color: "#111827", accent_color: "#2563EB" },
  dark: { background_color: "#111827", text_color: "#F9FAFB", accent_color: "#60A5FA" },
};

/** The dark palette: what `dark` colours default to, and the dark variant of a look without any. */
export const DARK_PALETTE: Readonly<LookColors> = Object.freeze({ ...PALETTES.dark });

/** Most characters a call-to-action label may have: it is one button, on a phone too. */
export const CTA_LABEL_MAX = 40;

const ctaSchema = z
  .strictObject({
    url: webUrl().meta({
      description: "Where the button leads (http or https).",
      examples: ["https://shop.example.com/sale"],
    }),
    label: z
      .string()
      .min(1)
      .max(CTA_LABEL_MAX)
      .refine((label) => label.trim() !== "", "must not be empty")
      .meta({ description: "The button's text.", examples: ["Shop the sale"] }),
  })
  .meta({ description: "A call-to-action button under the countdown on the hosted page." });

const colorsShape = {
  background_color: hexColor().meta({ description: "Background behind the digits." }),
  text_color: hexColor().meta({ description: "Colour of the digits and labels." }),
  accent_color: hexColor().meta({ description: "Colour of separators and the panel border." }),
};

/** Most characters a unit label may have: it sits under a two-digit panel. */
export const UNIT_LABEL_MAX = 20;

const labelShape = Object.fromEntries(
  TIME_UNITS.map((unit) => [
    unit,
    z
      .string()
      .max(UNIT_LABEL_MAX)
      .meta({ description: `Label shown under ${unit}, for every count.` }),
  ]),
) as Record<TimeUnit, z.ZodString>;

const LARGEST_UNITS = ["days", "hours", "minutes"] as const;

/**
 * How the countdown row is drawn. `rounded` and `plain` are the two panels there were before
 * styles (and what `panel` still names); the others draw each unit on its own: `boxes` on a
 * filled card, `outlined` in a bordered box, `flip` on split flip-clock cards, `circles` in a
 * ring that empties as the unit counts down, `bar` over a bar that does the same, `minimal`
 * with no panel, border or separator.
 */
export const LOOK_STYLES = [
  "rounded",
  "plain",
  "minimal",
  "boxes",
  "outlined",
  "flip",
  "circles",
  "bar",
] as const;

/** One of {@link LOOK_STYLES}. */
export type LookStyle = (typeof LOOK_STYLES)[number];

/** Limits of the words drawn in images: characters, and size in CSS pixels with its default. */
export const LOOK_WORDS_LIMITS = Object.freeze({
  heading: { maxLength: 60, minSize: 8, maxSize: 96, size: 22 },
  subheading: { maxLength: 80, minSize: 8, maxSize: 96, size: 14 },
  button: { maxLength: CTA_LABEL_MAX, minSize: 8, maxSize: 64, size: 16 },
});

const wordsFont = z.enum(["sans", "mono", "serif"]).nullable().meta({
  description: "Built-in font family of these words. null: the look's font (an uploaded one too).",
});

function wordsSchema(kind: "heading" | "subheading", description: string) {
  const limits = LOOK_WORDS_LIMITS[kind];
  return z
    .strictObject({
      text: z
        .string()
        .min(1)
        .max(limits.maxLength)
        .refine((text) => text.trim() !== "", "must not be empty")
        .meta({
          description: "The words.",
          examples: [kind === "heading" ? "Sale ends in" : "Free shipping on every order"],
        }),
      font: wordsFont.optional(),
      size: z
        .int()
        .min(limits.minSize)
        .max(limits.maxSize)
        .optional()
        .meta({
          description: `Height of the letters in CSS pixels (default ${limits.size}); shrunk when the image is too small.`,
        }),
      color: hexColor()
        .nullable()
        .optional()
        .meta({ description: "Colour of the words. null: text_color." }),
    })
    .meta({ description });
}

const buttonSchema = z
  .strictObject({
    label: z
      .string()
      .min(1)
      .max(LOOK_WORDS_LIMITS.button.maxLength)
      .refine((label) => label.trim() !== "", "must not be empty")
      .meta({ description: "The button's words.", examples: ["Shop now"] }),
    font: wordsFont.optional(),
    size: z
      .int()
      .min(LOOK_WORDS_LIMITS.button.minSize)
      .max(LOOK_WORDS_LIMITS.button.maxSize)
      .optional()
      .meta({
        description: `Height of the label in CSS pixels (default ${LOOK_WORDS_LIMITS.button.size}).`,
      }),
    color: hexColor()
      .nullable()
      .optional()
      .meta({ description: "Colour of the label. null: background_color." }),
    background_color: hexColor()
      .nullable()
      .optional()
      .meta({ description: "Fill of the button. null: accent_color." }),
  })
  .meta({
    description:
      "A button-like label drawn under the countdown, in images too. In email the whole image is the link (click_url).",
  });

const backgroundSchema = z
  .discriminatedUnion("type", [
    z
      .strictObject({
        type: z.literal("gradient"),
        from: hexColor().meta({ description: "Colour where the gradient starts." }),
        to: hexColor().meta({ description: "Colour where it ends." }),
        angle: z.int().min(0).max(359).optional().meta({
          description:
            "Direction in degrees, as CSS linear-gradient: 180 (default) runs top to bottom, 90 left to right.",
        }),
      })
      .meta({ description: "A linear gradient between two colours." }),
    z
      .strictObject({
        type: z.literal("image"),
        asset_id: z
          .uuid()
          .overwrite((id) => id.toLowerCase())
          .meta({ description: "An uploaded image (POST /assets with kind image, PNG or JPEG)." }),
      })
      .meta({ description: "An uploaded picture, scaled to cover the image and centred." }),
  ])
  .meta({ description: "What fills the image behind the countdown." });

const lookShape = {
  theme: z
    .enum(["light", "dark"])
    .meta({ description: "Base palette; colours not given explicitly come from it." }),
  ...colorsShape,
  matte_color: hexColor().meta({
    description:
      "Colour that GIF edges are blended against when transparent (GIF has no partial " +
      "transparency); defaults to background_color.",
  }),
  font: z.enum(["sans", "mono", "serif"]).meta({
    description:
      "Built-in font family. With font_asset_id it draws only what the uploaded font lacks, " +
      "and shows on pages while the uploaded font loads.",
  }),
  font_asset_id: z
    .uuid()
    .overwrite((id) => id.toLowerCase())
    .nullable()
    .meta({
      description:
        "An uploaded font (POST /assets with kind font) that draws the digits, separator and " +
        "labels in images and pages. It must draw 0-9, the separator and every label of the " +
        "look's locale. null: the built-in font. A font deleted later is drawn as null.",
      examples: ["01969e7c-8d7e-7a43-9c57-1f1f0e3e4b2a"],
    }),
  font_size: z.int().min(8).max(200).meta({ description: "Digit height in CSS pixels." }),
  units: z
    .array(z.enum(TIME_UNITS))
    .min(1)
    .refine((units) => new Set(units).size === units.length, "must not repeat a unit")
    .meta({
      description:
        "Units shown, largest first. A hidden unit's amount carries into the next smaller " +
        "shown unit; the smallest shown unit is rounded up.",
      examples: [["hours", "minutes", "seconds"]],
    }),
  largest_unit: z.enum(LARGEST_UNITS).meta({
    description: "Largest unit counted; larger amounts accumulate in it (50 hours, not 2 days).",
  }),
  pad: z.boolean().meta({ description: "Pad hours, minutes and seconds to two digits." }),
  hide_leading_zero_units: z.boolean().meta({
    description:
      'Hide the largest shown units while they are zero: "0 days 05 hours" shows "05 ' +
      'hours". The smallest shown unit always stays, and a zero between non-zero units ' +
      "stays too. Images, the hosted page, the embed and <tminus-countdown> drop a unit at " +
      "the second it reaches zero.",
  }),
  separator: z
    .string()
    .max(3)
    .meta({ description: "Text between units.", examples: [":"] }),
  show_labels: z.boolean(),
  locale: z
    .string()
    .max(35)
    .refine(isLocale, "must be a BCP 47 language tag, like en or pt-BR")
    .overwrite((tag) => (isLocale(tag) ? Intl.getCanonicalLocales(tag)[0]! : tag))
    .meta({ description: "Language of the unit labels.", examples: ["de"] }),
  labels: z
    .strictObject(labelShape)
    .partial()
    .meta({ description: "Words that replace the localized unit labels." }),
  panel: z.enum(["rounded", "plain"]).meta({
    description:
      "The panel of the rounded and plain styles. Without style, style follows it; without it, it follows style (plain for plain, else rounded).",
  }),
  style: z.enum(LOOK_STYLES).meta({
    description:
      "How the countdown row is drawn: rounded (a panel with a border, the default), plain (no border), minimal (no panel, border or separator), boxes (each unit on a filled card), outlined (each unit in a bordered box), flip (each digit on a split flip-clock card), circles (each unit in a ring that empties as it counts down), bar (each unit over a bar that does the same).",
  }),
  background: backgroundSchema.nullable().meta({
    description:
      "A gradient or uploaded image filling the image; the countdown then sits on a panel of " +
      "background_color. null: background_color alone. Not with transparent. An image deleted later is drawn as null.",
  }),
  heading: wordsSchema(
    "heading",
    "Words drawn above the countdown, in images and pages. null: none.",
  ).nullable(),
  subheading: wordsSchema(
    "subheading",
    "A line drawn below the countdown, in images and pages. null: none.",
  ).nullable(),
  button: buttonSchema.nullable(),
  transparent: z.boolean().meta({ description: "Draw no background (PNG, GIF, embed)." }),
  dark: z
    .strictObject(colorsShape)
    .partial()
    .nullable()
    .meta({
      description:
        "Colours used instead when the viewer's device prefers a dark colour scheme " +
        "(hosted page and embed); missing ones come from the dark palette. null: no switch " +
        "on pages; images asked for variant=dark then use the dark palette, unless the look " +
        "already has light text on a darker background.",
    }),
  brand_color: hexColor()
    .nullable()
    .meta({
      description:
        "Hosted page only: colour of the call-to-action button, a band across the top of the " +
        "page and the favicon. null: none (the button and favicon take accent_color).",
    }),
  cta: ctaSchema.nullable().meta({
    description: "Hosted page only: a call-to-action link under the countdown. null: none.",
  }),
  click_url: httpsLink()
    .nullable()
    .meta({
      description:
        "Where the email link GET /t/{id}/go leads while the timer runs (or is paused). " +
        "null: the hosted page.",
      examples: ["https://shop.example.com/sale"],
    }),
  not_started_click_url: httpsLink()
    .nullable()
    .meta({
      description:
        "Where GET /t/{id}/go leads before the recipient's countdown has started (a start in " +
        "the future). null: the hosted page.",
      examples: ["https://shop.example.com/coming-soon"],
    }),
};

function isLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    // Malformed: Intl refuses it, and so do we (below).
  }
  return false;
}

/** What a client may send as `look`: every field optional, unknown keys refused. */
export const lookInputSchema = z
  .strictObject(lookShape)
  .partial()
  .superRefine((look, ctx) => {
    if (look.units === undefined) return;
    // Without largest_unit the largest unit there is: none ranks below it.
    const largest = look.largest_unit ?? TIME_UNITS[0];
    const tooLarge = look.units.find((unit) => unitRank(unit) < unitRank(largest));
    if (tooLarge !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["units"],
        message: `must not contain ${tooLarge}, a larger unit than largest_unit (${largest})`,
      });
  })
  .superRefine((look, ctx) => {
    if (look.transparent === true && look.background)
      ctx.addIssue({
        code: "custom",
        path: ["background"],
        message: "must be null when transparent is true (a transparent look draws no background)",
      });
  });

/** The complete look a timer definition holds. */
const wordsOutput = z.strictObject({
  text: z.string(),
  font: z.enum(["sans", "mono", "serif"]).nullable(),
  size: z.int(),
  color: hexColor().nullable(),
});

export const lookOutputSchema = z.strictObject({
  ...lookShape,
  dark: z.strictObject(colorsShape).nullable(),
  background: z
    .discriminatedUnion("type", [
      z.strictObject({
        type: z.literal("gradient"),
        from: hexColor(),
        to: hexColor(),
        angle: z.int(),
      }),
      z.strictObject({ type: z.literal("image"), asset_id: z.uuid() }),
    ])
    .nullable(),
  heading: wordsOutput.nullable(),
  subheading: wordsOutput.nullable(),
  button: z
    .strictObject({
      label: z.string(),
      font: z.enum(["sans", "mono", "serif"]).nullable(),
      size: z.int(),
      color: hexColor().nullable(),
      background_color: hexColor().nullable(),
    })
    .nullable(),
});

/** A complete timer look, every field filled. */
export type Look = z.output<typeof lookOutputSchema>;

/** A heading or subheading of a complete look. */
export interface LookWords {
  text: string;
  font: "sans" | "mono" | "serif" | null;
  size: number;
  color: string | null;
}

/** What a client may send as a timer's `look`. */
export type LookInput = z.input<typeof lookInputSchema>;

/** Fills every field the input leaves out, from its theme and unit choices. */
export function resolveLook(input: z.output<typeof lookInputSchema>): Look {
  const theme = input.theme ?? "light";
  const palette = PALETTES[theme];
  const units = input.units ? [...input.units].sort((a, b) => unitRank(a) - unitRank(b)) : null;
  // Without largest_unit, the largest shown unit is the natural one: choosing
  // units [minutes, seconds] alone should mean "125:00", not hidden days.
  const largest: Look["largest_unit"] =
    input.largest_unit ?? (units ? atMostMinutes(units[0]!) : "days");
  const background = input.background_color ?? palette.background_color;
  return {
    theme,
    background_color: background,
    text_color: input.text_color ?? palette.text_color,
    accent_color: input.accent_color ?? palette.accent_color,
    matte_color: input.matte_color ?? background,
    font: input.font ?? "sans",
    font_asset_id: input.font_asset_id ?? null,
    font_size: input.font_size ?? 48,
    units: units ?? TIME_UNITS.filter((unit) => unitRank(unit) >= unitRank(largest)),
    largest_unit: largest,
    pad: input.pad ?? true,
    hide_leading_zero_units: input.hide_leading_zero_units ?? false,
    separator: input.separator ?? ":",
    show_labels: input.show_labels ?? true,
    locale: input.locale ?? "en",
    labels: input.labels ?? {},
    panel: input.panel ?? (input.style === "plain" ? "plain" : "rounded"),
    style: input.style ?? input.panel ?? "rounded",
    background: input.background ? resolveBackground(input.background) : null,
    heading: input.heading ? resolveWords(input.heading, "heading") : null,
    subheading: input.subheading ? resolveWords(input.subheading, "subheading") : null,
    button: input.button
      ? {
          label: input.button.label,
          font: input.button.font ?? null,
          size: input.button.size ?? LOOK_WORDS_LIMITS.button.size,
          color: input.button.color ?? null,
          background_color: input.button.background_color ?? null,
        }
      : null,
    transparent: input.transparent ?? false,
    dark: input.dark ? { ...PALETTES.dark, ...definedOnly(input.dark) } : null,
    brand_color: input.brand_color ?? null,
    cta: input.cta ?? null,
    click_url: input.click_url ?? null,
    not_started_click_url: input.not_started_click_url ?? null,
  };
}

function resolveBackground(
  background: NonNullable<z.output<typeof lookInputSchema>["background"]>,
): NonNullable<Look["background"]> {
  return background.type === "gradient"
    ? { type: "gradient", from: background.from, to: background.to, angle: background.angle ?? 180 }
    : { type: "image", asset_id: background.asset_id };
}

function resolveWords(
  words: { text: string; font?: Look["font"] | null; size?: number; color?: string | null },
  kind: "heading" | "subheading",
): LookWords {
  return {
    text: words.text,
    font: words.font ?? null,
    size: words.size ?? LOOK_WORDS_LIMITS[kind].size,
    color: words.color ?? null,
  };
}

// largest_unit has no "seconds": seconds-only countdowns count minutes into seconds anyway.
function atMostMinutes(unit: TimeUnit): Look["largest_unit"] {
  return unit === "seconds" ? "minutes" : unit;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * A timer's `look`: validates the client's partial look and returns the complete
 * one. Piping into {@link lookOutputSchema} keeps both directions representable
 * in JSON Schema (io "input" shows the request shape, "output" the stored one).
 */
export const lookSchema = lookInputSchema
  .transform(resolveLook)
  .pipe(lookOutputSchema)
  .meta({ description: "How the countdown looks. Every field is optional." });

/**
 * A stored look as it is today: looks saved before `brand_color`, `cta`, the click URLs and
 * `hide_leading_zero_units` existed lack them, and the timer object always carries every field.
 */
export function currentLook(look: Look): Look {
  if (
    look.hide_leading_zero_units !== undefined &&
    look.brand_color !== undefined &&
    look.cta !== undefined &&
    look.click_url !== undefined &&
    look.not_started_click_url !== undefined &&
    look.font_asset_id !== undefined &&
    look.style !== undefined &&
    look.background !== undefined &&
    look.heading !== undefined &&
    look.subheading !== undefined &&
    look.button !== undefined
  )
    return look;
  return {
    ...look,
    hide_leading_zero_units: look.hide_leading_zero_units ?? false,
    brand_color: look.brand_color ?? null,
    cta: look.cta ?? null,
    click_url: look.click_url ?? null,
    not_started_click_url: look.not_started_click_url ?? null,
    font_asset_id: look.font_asset_id ?? null,
    style: look.style ?? look.panel ?? "rounded",
    background: look.background ?? null,
    heading: look.heading ?? null,
    subheading: look.subheading ?? null,
    button: look.button ?? null,
  };
}

/** The look of a timer created without one. */
export const DEFAULT_LOOK: Readonly<Look> = deepFreeze(resolveLook({}));

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
