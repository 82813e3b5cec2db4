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
  panel: z.enum(["rounded", "plain"]),
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
    // Stryker disable next-line ConditionalExpression: equivalent, without largest_unit no unit ranks below it (unitRank(undefined) compares false).
    if (look.units === undefined || look.largest_unit === undefined) return;
    const largest = look.largest_unit;
    const tooLarge = look.units.find((unit) => unitRank(unit) < unitRank(largest));
    if (tooLarge !== undefined)
      ctx.addIssue({
        // Stryker disable next-line StringLiteral: equivalent, the mapper reads only the message of a custom issue.
        code: "custom",
        path: ["units"],
        message: `must not contain ${tooLarge}, a larger unit than largest_unit (${largest})`,
      });
  });

/** The complete look a timer definition holds. */
export const lookOutputSchema = z.strictObject({
  ...lookShape,
  dark: z.strictObject(colorsShape).nullable(),
});

/** A complete timer look, every field filled. */
export type Look = z.output<typeof lookOutputSchema>;

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
    panel: input.panel ?? "rounded",
    transparent: input.transparent ?? false,
    dark: input.dark ? { ...PALETTES.dark, ...definedOnly(input.dark) } : null,
    brand_color: input.brand_color ?? null,
    cta: input.cta ?? null,
    click_url: input.click_url ?? null,
    not_started_click_url: input.not_started_click_url ?? null,
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
    look.font_asset_id !== undefined
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
