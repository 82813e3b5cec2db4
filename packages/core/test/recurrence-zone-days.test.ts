// The full check of the offset cache's assumption (at most one change per UTC day) and the
// check at start that applies its record to the runtime's tz data.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { zoneDaysWithTwoChanges } from "../src/recurrence/zone-days";
import { ZONE_DAYS_CHECKED } from "../src/recurrence/zone-days.generated";
import {
  checkZoneData,
  type OffsetSource,
  tzReleaseOf,
  useOffsetSource,
  type ZoneDataCheck,
  zoneDataCheck,
  zoneOffsetMs,
} from "../src/recurrence/zone-offset";
import { intlOffsetMs } from "../src/time/intl-offset";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const dayOf = (year: number, month: number, day: number) => Date.UTC(year, month - 1, day) / DAY_MS;

/** A zone whose offset goes up an hour at each of `changes` (instants, ms). */
function steps(changes: number[]): OffsetSource {
  const sorted = [...changes].sort((a, b) => a - b);
  return (_zone, instant) => sorted.filter((c) => c <= instant).length * HOUR_MS;
}

afterEach(() => useOffsetSource());

describe("zoneDaysWithTwoChanges", () => {
  it("finds exactly the days with more than one change, for any changes on whole hours", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 20 * 24 - 1 }), { maxLength: 12 }),
        (hours) => {
          const from = 100;
          const changes = hours.map((h) => (from * 24 + h) * HOUR_MS);
          const perDay = new Map<number, number>();
          for (const h of hours) {
            // A change at midnight counts for the day before it: that day's end reads it.
            const day = from + Math.floor((h - 1) / 24);
            perDay.set(day, (perDay.get(day) ?? 0) + 1);
          }
          const expected = [...perDay].filter(([, n]) => n > 1).map(([day]) => day);
          expect(zoneDaysWithTwoChanges("Any/Zone", from, from + 20, steps(changes))).toEqual(
            expected.sort((a, b) => a - b),
          );
        },
      ),
    );
  });

  it("sees one change a day as regular, whatever its hour", () => {
    const changes = [3, 27, 50, 95].map((h) => h * HOUR_MS);
    expect(zoneDaysWithTwoChanges("Any/Zone", 0, 5, steps(changes))).toEqual([]);
    // Hour 92 is day 3's second change (hour 95 is its first).
    expect(zoneDaysWithTwoChanges("Any/Zone", 0, 5, steps([...changes, 92 * HOUR_MS]))).toEqual([
      3,
    ]);
  });

  it("reads each day from its own start: changes before the range do not count", () => {
    // Day 0 changes at 05:00 (before the range); day 2 once, at 05:00: regular.
    const source = steps([5 * HOUR_MS, (48 + 5) * HOUR_MS]);
    expect(zoneDaysWithTwoChanges("Any/Zone", 2, 4, source)).toEqual([]);
    expect(
      zoneDaysWithTwoChanges("Any/Zone", 2, 4, steps([5, 53, 60].map((h) => h * HOUR_MS))),
    ).toEqual([2]);
  });

  it("stops before `toDay`", () => {
    const source = steps([(72 + 3) * HOUR_MS, (72 + 9) * HOUR_MS]); // day 3, twice
    expect(zoneDaysWithTwoChanges("Any/Zone", 0, 3, source)).toEqual([]);
    expect(zoneDaysWithTwoChanges("Any/Zone", 0, 4, source)).toEqual([3]);
  });

  it("counts a change at midnight for the day it ends, and one before the day's first hour for neither", () => {
    // Day 1: 05:00 and the midnight that ends it (hour 48): two changes.
    expect(
      zoneDaysWithTwoChanges("Any/Zone", 0, 3, steps([29, 48].map((h) => h * HOUR_MS))),
    ).toEqual([1]);
    // Day 0 changes at 23:30, day 1 at 05:00: one each (a read at day 1's 23:00 before would see two).
    expect(zoneDaysWithTwoChanges("Any/Zone", 0, 3, steps([23.5 * HOUR_MS, 29 * HOUR_MS]))).toEqual(
      [],
    );
  });

  it("does not see a change undone within the same day (both ends equal), as documented", () => {
    const source: OffsetSource = (_zone, t) =>
      t >= 30 * HOUR_MS && t < 40 * HOUR_MS ? HOUR_MS : 0;
    expect(zoneDaysWithTwoChanges("Any/Zone", 0, 3, source)).toEqual([]);
  });

  it("finds no such day in real zones with frequent changes (2000 to 2030)", () => {
    for (const zone of ["America/New_York", "Australia/Lord_Howe", "Africa/Casablanca"])
      expect(zoneDaysWithTwoChanges(zone, dayOf(2000, 1, 1), dayOf(2031, 1, 1))).toEqual([]);
  });

  it("throws a RangeError for a zone the runtime does not know", () => {
    expect(() => zoneDaysWithTwoChanges("Mars/Olympus", 0, 1)).toThrow(RangeError);
  });
});

describe("the check at start", () => {
  it("was made on the tz data this runtime has (run scripts/check-zone-days.mjs when it changes)", () => {
    const check = zoneDataCheck();
    expect(check.runtime).toBe(process.versions.tz);
    expect(check.checked).toBe(process.versions.tz);
    expect(check.matches).toBe(true);
    expect(ZONE_DAYS_CHECKED.zones).toBe(Intl.supportedValuesOf("timeZone").length);
    expect([check.from, check.to]).toEqual([1970, 2100]);
    expect(check.irregular).toEqual(ZONE_DAYS_CHECKED.irregular);
  });

  it("reads the release where the runtime says it, and null where it does not", () => {
    expect(tzReleaseOf(globalThis)).toBe(process.versions.tz);
    expect(tzReleaseOf({ process: { versions: { tz: "2031a" } } })).toBe("2031a");
    expect(tzReleaseOf({})).toBeNull();
    expect(tzReleaseOf({ process: {} })).toBeNull();
    expect(tzReleaseOf({ process: { versions: {} } })).toBeNull();
  });

  it("applies the record only to the release it was made on", () => {
    expect(checkZoneData(ZONE_DAYS_CHECKED.tz).matches).toBe(true);
    expect(checkZoneData("1999z").matches).toBe(false);
    expect(checkZoneData(null)).toMatchObject({ runtime: null, matches: false });
  });

  /** Counts the source's reads: a cached zone reads a day's offsets once, an exact one every call. */
  function counted(): { source: OffsetSource; reads: () => number } {
    let n = 0;
    return {
      source: (zone, instant) => {
        n++;
        return intlOffsetMs(zone, instant);
      },
      reads: () => n,
    };
  }
  const listing = (irregular: string[], matches: boolean): ZoneDataCheck => ({
    runtime: matches ? "2025x" : "2030a",
    checked: "2025x",
    from: 1970,
    to: 2100,
    matches,
    irregular,
  });
  const noon = Date.UTC(2026, 0, 15, 12);

  it("sends a listed zone, by any of its names, to the exact path from its first use", () => {
    const { source, reads } = counted();
    useOffsetSource(source, listing(["America/New_York"], true));
    for (const zone of ["America/New_York", "US/Eastern"]) {
      const before = reads();
      for (let i = 0; i < 5; i++) expect(zoneOffsetMs(zone, noon + i)).toBe(-5 * HOUR_MS);
      // One read to know the zone, then one per call: nothing kept.
      expect(reads() - before).toBe(6);
    }
    // A zone not listed is cached: its day read once (both ends), then from memory.
    const before = reads();
    for (let i = 0; i < 5; i++) expect(zoneOffsetMs("Europe/Paris", noon + i)).toBe(HOUR_MS);
    expect(reads() - before).toBe(3);
  });

  it("leaves a listed zone cached on other tz data (the per-day check stands there)", () => {
    const { source, reads } = counted();
    useOffsetSource(source, listing(["America/New_York"], false));
    for (let i = 0; i < 5; i++)
      expect(zoneOffsetMs("America/New_York", noon + i)).toBe(-5 * HOUR_MS);
    expect(reads()).toBe(3);
  });
});
