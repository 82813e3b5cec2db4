// Edges of the formatting rules: no unit left to show, and locales that are no locale.
import { labelLanguage, splitRemaining, unitLabel } from "@tminus/core";
import { describe, expect, it } from "vitest";

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
