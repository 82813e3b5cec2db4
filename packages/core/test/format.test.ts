import {
  formatParts,
  labelLanguage,
  splitRemaining,
  TIME_UNITS,
  unitLabel,
  withoutLeadingZeroUnits,
} from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UNIT_WORDS } from "../src/format/_unit-words";

const D1_H2_M3_S4 = 93_784;

describe("splitRemaining", () => {
  it("splits into all units by default", () => {
    expect(splitRemaining(D1_H2_M3_S4)).toEqual([
      { unit: "days", value: 1 },
      { unit: "hours", value: 2 },
      { unit: "minutes", value: 3 },
      { unit: "seconds", value: 4 },
    ]);
  });

  it("accumulates above the largest unit", () => {
    expect(splitRemaining(D1_H2_M3_S4, { largestUnit: "hours" })).toEqual([
      { unit: "hours", value: 26 },
      { unit: "minutes", value: 3 },
      { unit: "seconds", value: 4 },
    ]);
  });

  it("carries hidden units down and rounds the smallest shown unit up", () => {
    expect(splitRemaining(D1_H2_M3_S4, { units: ["days", "minutes"] })).toEqual([
      { unit: "days", value: 1 },
      { unit: "minutes", value: 124 },
    ]);
    expect(splitRemaining(59, { units: ["hours", "minutes"] })).toEqual([
      { unit: "hours", value: 0 },
      { unit: "minutes", value: 1 },
    ]);
    expect(splitRemaining(0, { units: ["minutes"] })).toEqual([{ unit: "minutes", value: 0 }]);
  });

  it("ignores units above the largest unit and orders the rest", () => {
    expect(
      splitRemaining(3_600, { largestUnit: "minutes", units: ["seconds", "days", "minutes"] }),
    ).toEqual([
      { unit: "minutes", value: 60 },
      { unit: "seconds", value: 0 },
    ]);
  });

  it("always adds up to at least the remaining time, and less than one smallest unit more", () => {
    const sizes = { days: 86_400, hours: 3_600, minutes: 60, seconds: 1 } as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.uniqueArray(fc.constantFrom(...TIME_UNITS), { minLength: 1 }),
        (total, units) => {
          const parts = splitRemaining(total, { units });
          const sum = parts.reduce((acc, p) => acc + p.value * sizes[p.unit], 0);
          const smallest = sizes[parts[parts.length - 1]!.unit];
          expect(sum).toBeGreaterThanOrEqual(total);
          expect(sum - total).toBeLessThan(smallest);
          expect(sum === 0).toBe(total === 0);
        },
      ),
    );
  });
});

describe("splitRemaining with hideLeadingZeroUnits", () => {
  const sizes = { days: 86_400, hours: 3_600, minutes: 60, seconds: 1 } as const;
  const split = (total: number, units: (typeof TIME_UNITS)[number][], hide: boolean) =>
    splitRemaining(total, { units, hideLeadingZeroUnits: hide });

  it("drops the largest units while they are zero, not a zero between two others", () => {
    expect(split(5 * 3_600 + 7, [...TIME_UNITS], true)).toEqual([
      { unit: "hours", value: 5 },
      { unit: "minutes", value: 0 },
      { unit: "seconds", value: 7 },
    ]);
    expect(split(86_400 + 7, [...TIME_UNITS], true).map((p) => p.value)).toEqual([1, 0, 0, 7]);
    expect(split(42, [...TIME_UNITS], true)).toEqual([{ unit: "seconds", value: 42 }]);
    // Rounded up: 59 s with minutes as the smallest unit is 1 minute, and hours go.
    expect(split(59, ["hours", "minutes"], true)).toEqual([{ unit: "minutes", value: 1 }]);
    expect(split(0, [...TIME_UNITS], true)).toEqual([{ unit: "seconds", value: 0 }]);
    expect(split(5 * 3_600 + 7, [...TIME_UNITS], false)).toHaveLength(4);
  });

  it("never hides a non-zero unit nor the smallest, and the shown amounts still sum to the time", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 100_000_000 })),
        fc.uniqueArray(fc.constantFrom(...TIME_UNITS), { minLength: 1 }),
        (total, units) => {
          const all = split(total, units, false);
          const shown = split(total, units, true);
          // What stays is a tail of the full split: the hidden ones are its leading zeros.
          const hidden = all.slice(0, all.length - shown.length);
          expect(all.slice(hidden.length)).toEqual(shown);
          expect(hidden.every((p) => p.value === 0)).toBe(true);
          expect(shown.at(-1)).toEqual(all.at(-1));
          // Hiding stops at the first non-zero unit, unless only the smallest is left.
          if (shown.length > 1) expect(shown[0]!.value).toBeGreaterThan(0);
          const sum = (ps: typeof all) => ps.reduce((acc, p) => acc + p.value * sizes[p.unit], 0);
          expect(sum(shown)).toBe(sum(all));
        },
      ),
    );
  });

  it("keeps the smallest part of an all-zero list, and any list without leading zeros", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 6 }), (values) => {
        const parts = values.map((value) => ({ value }));
        const kept = withoutLeadingZeroUnits(parts);
        expect(kept.length).toBeGreaterThanOrEqual(1);
        expect(kept.at(-1)).toBe(parts.at(-1));
        const lead = parts.findIndex((p) => p.value !== 0);
        expect(kept.length).toBe(lead === -1 ? 1 : parts.length - lead);
      }),
    );
  });
});

describe("formatParts", () => {
  const parts = splitRemaining(D1_H2_M3_S4);

  it("pads everything but days when asked", () => {
    expect(formatParts(parts, { pad: true }).map((p) => p.text)).toEqual(["1", "02", "03", "04"]);
    expect(formatParts(parts, { pad: false }).map((p) => p.text)).toEqual(["1", "2", "3", "4"]);
  });

  it("never truncates a large leading unit", () => {
    const hours = splitRemaining(500 * 3600, { largestUnit: "hours" });
    expect(formatParts(hours, { pad: true })[0]).toEqual({
      unit: "hours",
      value: 500,
      text: "500",
    });
  });
});

const forms = (locale: string, unit: (typeof TIME_UNITS)[number], counts: number[]) =>
  counts.map((n) => unitLabel(unit, n, locale));

describe("unitLabel", () => {
  it("uses one and other in English", () => {
    expect(forms("en", "days", [0, 1, 2])).toEqual(["days", "day", "days"]);
    expect(forms("en-GB", "seconds", [1, 5])).toEqual(["second", "seconds"]);
  });

  it("uses Polish one, few and many", () => {
    expect(forms("pl", "days", [1, 2, 5, 22, 25])).toEqual(["dzień", "dni", "dni", "dni", "dni"]);
    expect(forms("pl", "hours", [1, 2, 5, 12, 22])).toEqual([
      "godzina",
      "godziny",
      "godzin",
      "godzin",
      "godziny",
    ]);
  });

  it("uses Russian and Ukrainian one, few and many, including 21 and 11", () => {
    expect(forms("ru", "days", [1, 2, 5, 11, 21, 22])).toEqual([
      "день",
      "дня",
      "дней",
      "дней",
      "день",
      "дня",
    ]);
    expect(forms("ru", "minutes", [1, 3, 7])).toEqual(["минута", "минуты", "минут"]);
    expect(forms("uk", "hours", [1, 2, 5])).toEqual(["година", "години", "годин"]);
  });

  it("uses Czech one, few and other", () => {
    expect(forms("cs", "days", [1, 2, 5])).toEqual(["den", "dny", "dní"]);
  });

  it("uses all six Arabic categories", () => {
    expect(forms("ar", "days", [0, 1, 2, 3, 11, 100])).toEqual([
      "يوم",
      "يوم",
      "يومان",
      "أيام",
      "يومًا",
      "يوم",
    ]);
  });

  it("keeps the numeral-free words for languages without plural inflection", () => {
    expect(forms("ja", "hours", [1, 5])).toEqual(["時間", "時間"]);
    expect(forms("tr", "days", [1, 5])).toEqual(["gün", "gün"]);
    expect(forms("fi", "minutes", [1, 5])).toEqual(["minuutti", "minuuttia"]);
  });

  it("uses the region's plural rules with the language's words", () => {
    // Brazilian Portuguese treats 0 as singular, European Portuguese does not.
    expect(unitLabel("days", 0, "pt-BR")).toBe("dia");
    expect(unitLabel("days", 0, "pt-PT")).toBe("dias");
    expect(unitLabel("days", 0, "fr")).toBe("jour");
  });

  it("picks Traditional Chinese by script and falls back to the base language, then English", () => {
    expect(unitLabel("minutes", 5, "zh-TW")).toBe("分鐘");
    expect(unitLabel("minutes", 5, "zh-CN")).toBe("分钟");
    expect(unitLabel("hours", 2, "de-CH")).toBe("Stunden");
    expect(unitLabel("hours", 2, "no")).toBe("timer");
    expect(labelLanguage("sw")).toBe("en");
    expect(unitLabel("hours", 2, "sw")).toBe("hours");
    expect(unitLabel("hours", 1, "not a locale!")).toBe("hour");
  });

  it("lets overrides replace the word for every count", () => {
    expect(unitLabel("days", 1, "de", { days: "T" })).toBe("T");
    expect(unitLabel("days", 5, "de", { days: "T" })).toBe("T");
    expect(unitLabel("hours", 5, "de", { days: "T" })).toBe("Stunden");
  });

  it("has its own words for at least the 22 required languages", () => {
    const languages = [
      "en",
      "de",
      "fr",
      "es",
      "it",
      "pt",
      "nl",
      "sv",
      "da",
      "nb",
      "fi",
      "pl",
      "cs",
    ];
    languages.push(
      "ru",
      "uk",
      "tr",
      "ja",
      "zh",
      "ko",
      "ar",
      "he",
      "hi",
      "id",
      "vi",
      "th",
      "hu",
      "el",
    );
    for (const language of languages) expect(labelLanguage(language)).toBe(language);
  });
});

describe("label tables", () => {
  // Every locale with words of its own (language, or language-script).
  const locales = Object.keys(UNIT_WORDS);
  const counts = [...Array.from({ length: 1101 }, (_, i) => i), 1_000_000];

  it("cover at least 30 locales", () => {
    expect(locales.length).toBeGreaterThanOrEqual(30);
    for (const locale of locales) expect(labelLanguage(locale)).toBe(locale);
  });

  it("give every category a count can take a word of that locale", () => {
    for (const locale of locales) {
      const rules = new Intl.PluralRules(locale);
      const reached = new Set(counts.map((n) => rules.select(n)));
      for (const unit of TIME_UNITS) {
        const table = UNIT_WORDS[locale]![unit];
        for (const category of reached) {
          const word = table[category] ?? table.other;
          expect(word, `${locale} ${unit} ${category}`).not.toBe("");
        }
        // Every form the table names is one a count reaches (no dead or misspelt category).
        for (const category of Object.keys(table))
          expect(
            category === "other" || category === "many" || reached.has(category as never),
            `${locale} ${unit} ${category}`,
          ).toBe(true);
      }
    }
  });

  it.each([
    ["ro", "days", [1, 2, 19, 20, 101], ["zi", "zile", "zile", "de zile", "zile"]],
    ["sl", "hours", [1, 2, 3, 5, 102], ["ura", "uri", "ure", "ur", "uri"]],
    ["lt", "days", [1, 2, 10, 21, 30], ["diena", "dienos", "dienų", "diena", "dienų"]],
    ["lv", "minutes", [0, 1, 2, 11, 21], ["minūšu", "minūte", "minūtes", "minūšu", "minūte"]],
    ["hr", "seconds", [1, 3, 5, 11, 21], ["sekunda", "sekunde", "sekundi", "sekundi", "sekunda"]],
    ["sr-Latn", "hours", [1, 2, 5], ["sat", "sata", "sati"]],
    ["sr", "hours", [1, 2, 5], ["сат", "сата", "сати"]],
    ["sk", "days", [1, 2, 5], ["deň", "dni", "dní"]],
    ["fa", "days", [1, 5], ["روز", "روز"]],
    ["mr", "minutes", [1, 5], ["मिनिट", "मिनिटे"]],
  ] as const)("%s %s", (locale, unit, values, words) => {
    expect(forms(locale, unit, [...values])).toEqual(words);
  });
});
