// What a refused time zone name is answered with: canonical zones only, the right one for
// cities, abbreviations and old names, and why an abbreviation or an offset is not a zone.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCanonicalTimeZone, timeZoneNames } from "../src/time/timezones";
import { adviseTimeZone, timeZoneAdviceText } from "../src/time/zone-advice";

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
