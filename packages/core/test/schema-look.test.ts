// A timer's look (src/schema/look.ts): what a partial look resolves to, the words, button and
// background it fills in, the rules its text fields keep, and how a look stored before a
// field existed is shown. The renderers rely on the resolved look being complete.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  currentLook,
  DEFAULT_LOOK,
  LOOK_STYLES,
  type Look,
  lookInputSchema,
  lookSchema,
  resolveLook,
} from "../src/index";

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_129;

function messages(input: unknown): string[] {
  const parsed = lookSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("a look's panel and style", () => {
  it("follow each other: style from panel, panel from style (plain for plain)", () => {
    const styleArb = fc.option(fc.constantFrom(...LOOK_STYLES), { nil: undefined });
    const panelArb = fc.option(fc.constantFrom("rounded" as const, "plain" as const), {
      nil: undefined,
    });
    fc.assert(
      fc.property(styleArb, panelArb, (style, panel) => {
        const look = resolveLook({ style, panel });
        expect(look.style).toBe(style ?? panel ?? "rounded");
        expect(look.panel).toBe(panel ?? (style === "plain" ? "plain" : "rounded"));
      }),
      { seed, numRuns: 100 },
    );
    // The cases each rule turns on, whatever number of runs the property made.
    expect(resolveLook({ style: "plain" })).toMatchObject({ style: "plain", panel: "plain" });
    expect(resolveLook({ style: "flip" })).toMatchObject({ style: "flip", panel: "rounded" });
    expect(resolveLook({ panel: "plain" })).toMatchObject({ style: "plain", panel: "plain" });
    expect(resolveLook({ style: "flip", panel: "plain" })).toMatchObject({
      style: "flip",
      panel: "plain",
    });
  });
});

describe("a look's words, button and background", () => {
  it("fill what a heading or subheading leaves out: its kind's size, the look's font and colour", () => {
    expect(lookSchema.parse({ heading: { text: "Sale ends in" } }).heading).toStrictEqual({
      text: "Sale ends in",
      font: null,
      size: 22,
      color: null,
    });
    expect(lookSchema.parse({ subheading: { text: "Free shipping" } }).subheading).toStrictEqual({
      text: "Free shipping",
      font: null,
      size: 14,
      color: null,
    });
    const given = { text: "Hi", font: "mono", size: 30, color: "#aabbcc" } as const;
    const look = lookSchema.parse({ heading: given, subheading: { ...given, text: "Lo" } });
    expect(look.heading).toStrictEqual({ ...given, color: "#AABBCC" });
    expect(look.subheading).toStrictEqual({ ...given, text: "Lo", color: "#AABBCC" });
    expect(lookSchema.parse({}).heading).toBeNull();
    expect(lookSchema.parse({ heading: null, subheading: null })).toMatchObject({
      heading: null,
      subheading: null,
    });
  });

  it("fill what a button leaves out, and keep what it gives", () => {
    expect(lookSchema.parse({ button: { label: "Shop now" } }).button).toStrictEqual({
      label: "Shop now",
      font: null,
      size: 16,
      color: null,
      background_color: null,
    });
    const given = {
      label: "Go",
      font: "serif",
      size: 20,
      color: "#112233",
      background_color: "#445566",
    } as const;
    expect(lookSchema.parse({ button: given }).button).toStrictEqual(given);
    expect(lookSchema.parse({ button: null }).button).toBeNull();
  });

  it("draw a gradient top to bottom unless given an angle, and keep an image's id lower-case", () => {
    const gradient = { type: "gradient", from: "#000000", to: "#FFFFFF" } as const;
    expect(lookSchema.parse({ background: gradient }).background).toStrictEqual({
      ...gradient,
      angle: 180,
    });
    expect(lookSchema.parse({ background: { ...gradient, angle: 0 } }).background).toStrictEqual({
      ...gradient,
      angle: 0,
    });
    const id = "01969E7C-8D7E-7A43-9C57-1F1F0E3E4B2A";
    expect(
      lookSchema.parse({ background: { type: "image", asset_id: id } }).background,
    ).toStrictEqual({ type: "image", asset_id: id.toLowerCase() });
    expect(lookSchema.parse({ font_asset_id: id }).font_asset_id).toBe(id.toLowerCase());
    expect(lookSchema.parse({ background: null }).background).toBeNull();
  });

  it("refuse words and labels that are only blanks, and take them with one visible character", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[ \t\n]{1,8}$/),
        fc.constantFrom("x", " x", "x "),
        (blank, word) => {
          for (const look of [
            { heading: { text: blank } },
            { subheading: { text: blank } },
            { button: { label: blank } },
          ]) {
            const field = Object.keys(look)[0]!;
            const key = field === "button" ? "label" : "text";
            expect(messages(look)).toEqual([`${field}.${key}: must not be empty`]);
            expect(messages({ [field]: { [key]: `${blank}${word}` } })).toEqual([]);
          }
        },
      ),
      { seed, numRuns: 50 },
    );
    expect(messages({ heading: { text: " " } })).toEqual(["heading.text: must not be empty"]);
    expect(messages({ subheading: { text: " " } })).toEqual(["subheading.text: must not be empty"]);
    expect(messages({ button: { label: " " } })).toEqual(["button.label: must not be empty"]);
  });
});

describe("a look's units and largest_unit", () => {
  it("refuse a unit larger than largest_unit, and take any units without one", () => {
    expect(lookInputSchema.safeParse({ units: ["days", "seconds"] }).success).toBe(true);
    expect(lookInputSchema.safeParse({ largest_unit: "hours" }).success).toBe(true);
    expect(lookInputSchema.safeParse({}).success).toBe(true);
    expect(messages({ units: ["days", "hours"], largest_unit: "hours" })).toEqual([
      "units: must not contain days, a larger unit than largest_unit (hours)",
    ]);
    expect(messages({ units: ["hours", "minutes"], largest_unit: "hours" })).toEqual([]);
  });
});

// Every field a look stored before it existed may lack, with what it is shown as then.
const LATER_FIELDS = [
  "hide_leading_zero_units",
  "brand_color",
  "cta",
  "click_url",
  "not_started_click_url",
  "font_asset_id",
  "style",
  "background",
  "heading",
  "subheading",
  "button",
] as const;

// A look whose later fields all differ from what a missing one is shown as.
const RICH: Look = lookSchema.parse({
  panel: "plain",
  style: "flip",
  hide_leading_zero_units: true,
  brand_color: "#123456",
  cta: { url: "https://shop.example/", label: "Shop" },
  click_url: "https://shop.example/go",
  not_started_click_url: "https://shop.example/soon",
  font_asset_id: "01969e7c-8d7e-7a43-9c57-1f1f0e3e4b2a",
  background: { type: "gradient", from: "#000000", to: "#FFFFFF" },
  heading: { text: "Sale" },
  subheading: { text: "Now" },
  button: { label: "Go" },
});

function shownWhenMissing(look: Look, field: (typeof LATER_FIELDS)[number]): unknown {
  if (field === "hide_leading_zero_units") return false;
  if (field === "style") return look.panel;
  return null;
}

function lacking(look: Look, fields: readonly string[]): Look {
  const old: Record<string, unknown> = { ...look };
  for (const field of fields) delete old[field];
  return old as Look;
}

describe("a look stored before some of its fields existed", () => {
  it("is shown with each missing field's default and every field it has", () => {
    fc.assert(
      fc.property(fc.subarray([...LATER_FIELDS], { minLength: 1 }), (missing) => {
        const expected: Record<string, unknown> = { ...RICH };
        for (const field of missing) expected[field] = shownWhenMissing(RICH, field);
        expect(currentLook(lacking(RICH, missing))).toStrictEqual(expected);
      }),
      { seed, numRuns: 200 },
    );
    // Each field missing alone: the one case where only its own check sees it.
    for (const field of LATER_FIELDS)
      expect(currentLook(lacking(RICH, [field])), field).toStrictEqual({
        ...RICH,
        [field]: shownWhenMissing(RICH, field),
      });
    // All of them missing at once, the other fields kept.
    expect(currentLook(lacking(RICH, LATER_FIELDS))).toStrictEqual({
      ...RICH,
      hide_leading_zero_units: false,
      brand_color: null,
      cta: null,
      click_url: null,
      not_started_click_url: null,
      font_asset_id: null,
      style: "plain",
      background: null,
      heading: null,
      subheading: null,
      button: null,
    });
  });

  it("shows style rounded when it has no panel either, and a current look as it is", () => {
    expect(currentLook(lacking(DEFAULT_LOOK, ["style", "panel"])).style).toBe("rounded");
    expect(currentLook(lacking({ ...DEFAULT_LOOK, panel: "plain" }, ["style"])).style).toBe(
      "plain",
    );
    expect(currentLook(RICH)).toBe(RICH);
  });
});
