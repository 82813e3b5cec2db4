import { describeTimeZone, isCanonicalTimeZone, TZDB_VERSION, timeZoneNames } from "@tminus/core";
import { IANAZone } from "luxon";
import { describe, expect, it } from "vitest";

const JAN_2026 = Date.UTC(2026, 0, 15);

describe("timeZoneNames", () => {
  it("is sorted, unique and comes from a named tz release", () => {
    expect(TZDB_VERSION).toMatch(/^\d{4}[a-z]$/);
    expect(new Set(timeZoneNames).size).toBe(timeZoneNames.length);
    expect([...timeZoneNames].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(timeZoneNames);
    expect(timeZoneNames.length).toBeGreaterThan(300);
  });

  it("holds only names this Node's ICU and luxon can compute offsets for", () => {
    for (const name of timeZoneNames) {
      expect(() => new Intl.DateTimeFormat("en", { timeZone: name }), name).not.toThrow();
      expect(IANAZone.isValidZone(name), name).toBe(true);
    }
  });
});

describe("isCanonicalTimeZone", () => {
  it.each([
    "Asia/Kolkata",
    "Europe/Kyiv",
    "America/Argentina/Buenos_Aires",
    "Etc/UTC",
    "Europe/Berlin",
  ])("accepts %s", (name) => {
    expect(isCanonicalTimeZone(name)).toBe(true);
  });

  it.each([
    "Asia/Calcutta", // backward link to Asia/Kolkata
    "Europe/Kiev", // backward link to Europe/Kyiv
    "US/Eastern", // backward link
    "EST", // legacy abbreviation zone
    "UTC", // link to Etc/UTC
    "utc",
    "Europe/london", // wrong case: Intl accepts it, we do not
    "Mars/Olympus_Mons",
    "",
  ])("rejects %s", (name) => {
    expect(isCanonicalTimeZone(name)).toBe(false);
  });

  it("does not follow the engine's own preferences", () => {
    // Node's ICU still prefers the old link names; the accepted list is the tz
    // database's canonical one, so it differs on purpose.
    const engine = Intl.supportedValuesOf("timeZone");
    expect(engine).toContain("Asia/Calcutta");
    expect(engine).not.toContain("Asia/Kolkata");
    expect(isCanonicalTimeZone("Asia/Kolkata")).toBe(true);
    expect(isCanonicalTimeZone("Asia/Calcutta")).toBe(false);
  });
});

describe("describeTimeZone", () => {
  it("describes a zone without DST", () => {
    expect(describeTimeZone("Asia/Kolkata", JAN_2026)).toEqual({
      id: "Asia/Kolkata",
      utc_offset: "+05:30",
      utc_offset_minutes: 330,
      observes_dst: false,
    });
    expect(describeTimeZone("Asia/Kathmandu", JAN_2026).utc_offset).toBe("+05:45");
    expect(describeTimeZone("Etc/UTC", JAN_2026)).toMatchObject({
      utc_offset: "+00:00",
      observes_dst: false,
    });
  });

  it("sees DST, including Lord Howe's half-hour shift", () => {
    expect(describeTimeZone("Europe/Berlin", JAN_2026)).toMatchObject({
      utc_offset: "+01:00",
      observes_dst: true,
    });
    expect(describeTimeZone("Europe/Berlin", Date.UTC(2026, 6, 1)).utc_offset).toBe("+02:00");
    expect(describeTimeZone("Australia/Lord_Howe", JAN_2026)).toMatchObject({
      utc_offset: "+11:00",
      observes_dst: true,
    });
    expect(describeTimeZone("Australia/Lord_Howe", Date.UTC(2026, 6, 1)).utc_offset).toBe("+10:30");
  });

  it("writes negative offsets with a minus sign", () => {
    expect(describeTimeZone("America/St_Johns", JAN_2026)).toMatchObject({
      utc_offset: "-03:30",
      utc_offset_minutes: -210,
    });
  });

  it("refuses names that are not canonical", () => {
    expect(() => describeTimeZone("Asia/Calcutta", JAN_2026)).toThrow(RangeError);
  });

  it("finds the same DST zones as sampling every day would", () => {
    // Guards the two-week sampling step against a future tz release with a
    // shorter offset period (Morocco's Ramadan change falls in every 12 months).
    const daily = (name: string) => {
      const zone = IANAZone.create(name);
      const first = zone.offset(JAN_2026);
      for (let d = 1; d <= 366; d++)
        if (zone.offset(JAN_2026 + d * 86_400_000) !== first) return true;
      return false;
    };
    for (const name of timeZoneNames) {
      expect(describeTimeZone(name, JAN_2026).observes_dst, name).toBe(daily(name));
    }
    expect(describeTimeZone("Africa/Casablanca", JAN_2026).observes_dst).toBe(true);
  });

  it("describes the whole list quickly enough for GET /timezones", () => {
    const started = performance.now();
    for (const name of timeZoneNames) describeTimeZone(name, JAN_2026);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
