// Edges of the formatting rules: no unit left to show, and locales that are no locale.
import { labelLanguage, splitRemaining, unitLabel } from "@tminus/core";
import { describe, expect, it, vi } from "vitest";

describe("splitRemaining with nothing left to show", () => {
  it("shows the largest unit, rounded up, when no listed unit remains", () => {
    expect(splitRemaining(100, { units: [] })).toEqual([{ unit: "days", value: 1 }]);
    expect(splitRemaining(100, { units: ["days"], largestUnit: "hours" })).toEqual([
      { unit: "hours", value: 1 },
    ]);
  });
});

describe("labels for malformed locales", () => {
  it("fall back to English instead of throwing", () => {
    expect(labelLanguage("not a locale!")).toBe("en");
    expect(unitLabel("days", 2, "not a locale!")).toBe("days");
    expect(unitLabel("days", 1, "")).toBe("day");
  });
});

describe("the label cache", () => {
  it("builds a locale's plural rules once, and forgets them after a thousand other locales", () => {
    // Private-use tags are valid and distinct; a fresh prefix per run keeps them uncached even
    // if the module outlives one run. Whatever the cache held before, at most 1,000 entries,
    // 1,001 new locales empty it at least once after the first one was added.
    const run = crypto.randomUUID().slice(0, 8);
    const tag = (i: number) => `en-x-${run}-c${i}`;
    // The real rules, counted (vi.spyOn on a class would build mock instances without select).
    const Original = Intl.PluralRules;
    const built = vi.fn();
    const counting = class extends Original {
      constructor(...args: ConstructorParameters<typeof Intl.PluralRules>) {
        super(...args);
        built();
      }
    };
    // Intl.PluralRules is writable at run time; only its type says read-only.
    const setRules = (value: typeof Original) =>
      Object.defineProperty(Intl, "PluralRules", { value, writable: true, configurable: true });
    setRules(counting as typeof Original);
    try {
      expect(unitLabel("days", 2, tag(0))).toBe("days");
      expect(unitLabel("days", 1, tag(0))).toBe("day");
      expect(built).toHaveBeenCalledTimes(1);
      // One more locale does not empty the cache.
      unitLabel("days", 2, tag(1));
      unitLabel("days", 2, tag(0));
      expect(built).toHaveBeenCalledTimes(2);
      for (let i = 2; i <= 1001; i++) unitLabel("days", 2, tag(i));
      expect(built).toHaveBeenCalledTimes(1002);
      unitLabel("days", 2, tag(0));
      expect(built).toHaveBeenCalledTimes(1003);
    } finally {
      setRules(Original);
    }
  });
});
