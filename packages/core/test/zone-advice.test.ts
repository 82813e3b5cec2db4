// What a refused time zone name is answered with: canonical zones only, the right one for
// cities, abbreviations and old names, and why an abbreviation or an offset is not a zone.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCanonicalTimeZone, timeZoneNames } from "../src/time/timezones";
import {
  ABBREVIATIONS,
  ALIASES,
  adviseTimeZone,
  timeZoneAdviceText,
} from "../src/time/zone-advice";

describe("adviseTimeZone", () => {
  it("names a city's zone, as typed with spaces, dashes or another letter case", () => {
    for (const typed of ["New York", "new york", "new-york", "NEW_YORK", "America/NewYork"]) {
      expect(adviseTimeZone(typed).suggestions, typed).toEqual(["America/New_York"]);
    }
    expect(adviseTimeZone("São Paulo").suggestions).toEqual(["America/Sao_Paulo"]);
    expect(adviseTimeZone("Munich").suggestions).toEqual(["Europe/Berlin"]);
    expect(adviseTimeZone("Los Ang").suggestions).toEqual(["America/Los_Angeles"]);
  });

  it("answers an abbreviation with its usual zone and why it is not one", () => {
    const est = adviseTimeZone("EST");
    expect(est.suggestions).toEqual(["America/New_York"]);
    expect(timeZoneAdviceText(est)).toBe(
      "did you mean America/New_York? EST (Eastern Standard Time) is an abbreviation, not a zone: it names a clock for part of the year. A zone follows a place through its daylight saving changes, as America/New_York follows New York.",
    );
    expect(adviseTimeZone("cet").suggestions).toEqual(["Europe/Berlin", "Europe/Paris"]);
    expect(adviseTimeZone("IST").suggestions).toEqual([
      "Asia/Kolkata",
      "Europe/Dublin",
      "Asia/Jerusalem",
    ]);
  });

  it("says an offset is not a zone, and suggests nothing it cannot know", () => {
    for (const offset of ["+01:00", "UTC+1", "GMT-5", "-0500"]) {
      const advice = adviseTimeZone(offset);
      expect(advice.suggestions, offset).toEqual([]);
      expect(advice.why, offset).toContain("a UTC offset is not a zone");
    }
    expect(adviseTimeZone("Mars/Olympus_Mons")).toEqual({ suggestions: [], why: null });
    expect(adviseTimeZone("")).toEqual({ suggestions: [], why: null });
    expect(timeZoneAdviceText({ suggestions: [], why: null })).toBe("");
  });

  it("suggests every canonical zone for its own city, and only canonical zones for anything", () => {
    for (const zone of timeZoneNames) {
      const city = zone.split("/").pop()!.replaceAll("_", " ");
      expect(adviseTimeZone(city).suggestions, city).toContain(zone);
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (typed) => {
        const advice = adviseTimeZone(typed);
        expect(advice.suggestions.length).toBeLessThanOrEqual(3);
        for (const zone of advice.suggestions) expect(isCanonicalTimeZone(zone)).toBe(true);
      }),
    );
  });
});

describe("adviseTimeZone, its tables and each step", () => {
  it("names one to three canonical zones for each abbreviation, and why, in any letter case", () => {
    expect(ABBREVIATIONS.size).toBeGreaterThan(40);
    for (const [abbreviation, [zones, meaning]] of ABBREVIATIONS) {
      expect(zones.length, abbreviation).toBeGreaterThanOrEqual(1);
      expect(zones.length, abbreviation).toBeLessThanOrEqual(3);
      for (const zone of zones) expect(isCanonicalTimeZone(zone), zone).toBe(true);
      for (const typed of [abbreviation, ` ${abbreviation.toLowerCase()} `]) {
        const advice = adviseTimeZone(typed);
        expect(advice.suggestions, typed).toEqual(zones);
        expect(advice.why, typed).toMatch(
          new RegExp(`^${abbreviation} \\(${meaning}\\) is an abbreviation, not a zone: `),
        );
      }
    }
    // The place named in why is the first zone's city, written with spaces.
    expect(adviseTimeZone("ART").why).toMatch(
      / as America\/Argentina\/Buenos_Aires follows Buenos Aires\.$/,
    );
    expect(adviseTimeZone("mst").why).toMatch(/ as America\/Denver follows Denver\.$/);
  });

  it("answers each alias with its canonical zone, typed with spaces", () => {
    for (const [alias, zone] of Object.entries(ALIASES)) {
      expect(isCanonicalTimeZone(zone), zone).toBe(true);
      const suggestions = adviseTimeZone(alias.replaceAll("_", " ")).suggestions;
      // utc and gmt are abbreviations too: answered as one (GMT adds Europe/London).
      if (ABBREVIATIONS.has(alias.toUpperCase())) expect(suggestions[0], alias).toBe(zone);
      else expect(suggestions, alias).toEqual([zone]);
    }
  });

  it("answers a canonical zone in another letter case with exactly itself", () => {
    for (const zone of timeZoneNames) {
      for (const typed of [zone.toLowerCase(), zone.toUpperCase(), ` ${zone.toLowerCase()}`]) {
        expect(adviseTimeZone(typed), typed).toEqual({ suggestions: [zone], why: null });
      }
    }
  });

  it("reads a city through accents, punctuation, runs of spaces and a zone's missing underscore", () => {
    const cases = [
      ["Zürich", "Europe/Zurich"],
      ["St. John's", "America/St_Johns"],
      ["Washington, D.C.", "America/New_York"],
      ["Munich .", "Europe/Berlin"],
      ["Rio  de  Janeiro", "America/Sao_Paulo"],
      ["Rio - de - Janeiro", "America/Sao_Paulo"],
      ["America/New York", "America/New_York"],
      ["NewYork", "America/New_York"], // the city without its underscore
      ["losangeles", "America/Los_Angeles"],
      ["Bahia", "America/Bahia"], // the city itself, not also Bahia_Banderas
      ["Dawson", "America/Dawson"],
    ] as const;
    for (const [typed, zone] of cases)
      expect(adviseTimeZone(typed).suggestions, typed).toEqual([zone]);
  });

  it("answers the start of a city, four letters or more, with at most three zones in tz order", () => {
    expect(adviseTimeZone("Bahi").suggestions).toEqual(["America/Bahia", "America/Bahia_Banderas"]);
    expect(adviseTimeZone("Bah").suggestions).toEqual([]);
    const mont = timeZoneNames.filter((zone) =>
      zone.split("/").pop()!.toLowerCase().startsWith("mont"),
    );
    expect(mont.length).toBeGreaterThan(3);
    expect(adviseTimeZone("Mont").suggestions).toEqual(mont.slice(0, 3));
  });

  it("writes every suggestion and why into one sentence", () => {
    expect(timeZoneAdviceText(adviseTimeZone("CET"))).toMatch(
      /^did you mean Europe\/Berlin or Europe\/Paris\? CET \(Central European Time\) is /,
    );
    expect(timeZoneAdviceText({ suggestions: ["Europe/Berlin"], why: null })).toBe(
      "did you mean Europe/Berlin?",
    );
    expect(timeZoneAdviceText(adviseTimeZone("+01:00"))).toMatch(/^a UTC offset is not a zone: /);
  });
});
