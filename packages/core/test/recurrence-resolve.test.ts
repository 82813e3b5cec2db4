// The wall-clock -> instant resolver and the offset cache, on the zones whose
// transitions are unusual: 30/45-minute offsets, half-hour DST, midnight gaps,
// whole days skipped by a move across the date line.
import fc from "fast-check";
import { IANAZone } from "luxon";
import { describe, expect, test } from "vitest";
import { civilFromDays, weekdayOfDay } from "../src/recurrence/_local";
import { resolveLocal } from "../src/recurrence/resolve";
import { zoneOffsetMs } from "../src/recurrence/zone-offset";
import { parseLocalDateTime } from "../src/time/local-date-time";

const local = (text: string) => {
  const value = parseLocalDateTime(text);
  if (value === null) throw new Error(text);
  return value;
};

describe("resolveLocal", () => {
  test.each([
    // zone, wall time, expected instant, why
    ["America/New_York", "2026-01-15T09:30", "2026-01-15T14:30:00Z", "EST, no transition"],
    ["America/New_York", "2026-07-15T09:30", "2026-07-15T13:30:00Z", "EDT, no transition"],
    [
      "America/New_York",
      "2026-03-08T01:59:59",
      "2026-03-08T06:59:59Z",
      "last second before the gap",
    ],
    [
      "America/New_York",
      "2026-03-08T02:00",
      "2026-03-08T07:00:00Z",
      "gap start moves to 03:00 EDT",
    ],
    [
      "America/New_York",
      "2026-03-08T02:30",
      "2026-03-08T07:30:00Z",
      "gap: forward by one hour, 03:30 EDT",
    ],
    [
      "America/New_York",
      "2026-03-08T03:00",
      "2026-03-08T07:00:00Z",
      "first wall time after the gap",
    ],
    ["America/New_York", "2026-11-01T00:59:59", "2026-11-01T04:59:59Z", "before the overlap"],
    ["America/New_York", "2026-11-01T01:00", "2026-11-01T05:00:00Z", "overlap: earlier (EDT)"],
    ["America/New_York", "2026-11-01T01:30", "2026-11-01T05:30:00Z", "overlap: earlier (EDT)"],
    ["America/New_York", "2026-11-01T02:00", "2026-11-01T07:00:00Z", "after the overlap (EST)"],
    ["Europe/London", "2026-03-29T01:30", "2026-03-29T01:30:00Z", "gap 01:00-02:00 -> 02:30 BST"],
    ["Europe/London", "2026-10-25T01:30", "2026-10-25T00:30:00Z", "overlap -> BST"],
    ["Asia/Kolkata", "2026-05-01T09:00", "2026-05-01T03:30:00Z", "+05:30"],
    ["Asia/Kathmandu", "2026-05-01T09:00", "2026-05-01T03:15:00Z", "+05:45"],
    ["Pacific/Chatham", "2026-07-01T09:00", "2026-06-30T20:15:00Z", "+12:45 standard"],
    [
      "Pacific/Chatham",
      "2026-09-27T03:00",
      "2026-09-26T14:15:00Z",
      "gap 02:45-03:45 -> 04:00 +13:45",
    ],
    [
      "Pacific/Chatham",
      "2026-04-05T03:00",
      "2026-04-04T13:15:00Z",
      "overlap 02:45-03:45 -> +13:45",
    ],
    [
      "Australia/Lord_Howe",
      "2026-10-04T02:15",
      "2026-10-03T15:45:00Z",
      "half-hour gap -> 02:45 +11",
    ],
    [
      "Australia/Lord_Howe",
      "2026-10-04T02:30",
      "2026-10-03T15:30:00Z",
      "first wall time after the gap",
    ],
    ["Australia/Lord_Howe", "2026-04-05T01:45", "2026-04-04T14:45:00Z", "half-hour overlap -> +11"],
    [
      "Australia/Lord_Howe",
      "2026-04-05T02:00",
      "2026-04-04T15:30:00Z",
      "after the overlap, +10:30",
    ],
    ["America/Santiago", "2026-09-06T00:30", "2026-09-06T04:30:00Z", "midnight gap -> 01:30 -03"],
    [
      "America/Santiago",
      "2026-04-04T23:30",
      "2026-04-05T02:30:00Z",
      "overlap before midnight -> -03",
    ],
    ["Pacific/Apia", "2011-12-29T23:59:59", "2011-12-30T09:59:59Z", "last second of 29 Dec (-10)"],
    [
      "Pacific/Apia",
      "2011-12-30T09:00",
      "2011-12-30T19:00:00Z",
      "skipped day: forward 24 h, 31 Dec 09:00 +14",
    ],
    ["Pacific/Apia", "2011-12-31T09:00", "2011-12-30T19:00:00Z", "31 Dec 09:00 +14"],
    [
      "Pacific/Kiritimati",
      "1994-12-31T12:00",
      "1994-12-31T22:00:00Z",
      "skipped day -> 1 Jan 12:00 +14",
    ],
    ["Pacific/Kiritimati", "1995-01-01T12:00", "1994-12-31T22:00:00Z", "1 Jan 12:00 +14"],
    ["Pacific/Kiritimati", "1994-12-30T12:00", "1994-12-30T22:00:00Z", "30 Dec 12:00 -10"],
    ["Etc/UTC", "2024-02-29T12:00", "2024-02-29T12:00:00Z", "UTC"],
  ])("%s %s -> %s (%s)", (zone, wall, expected) => {
    expect(new Date(resolveLocal(local(wall), zone)).toISOString()).toBe(
      new Date(expected).toISOString(),
    );
  });

  test("an unknown zone is a RangeError", () => {
    expect(() => resolveLocal(local("2026-01-01T00:00"), "Mars/Olympus")).toThrow(RangeError);
  });
});

describe("zoneOffsetMs", () => {
  test("matches luxon's uncached offsets around transitions, to the second", () => {
    const cases: [string, string][] = [
      ["America/New_York", "2026-03-08T07:00:00Z"],
      ["Australia/Lord_Howe", "2026-10-03T15:30:00Z"],
      ["Pacific/Apia", "2011-12-30T10:00:00Z"],
      ["Pacific/Kiritimati", "1994-12-31T10:00:00Z"],
      ["Africa/Monrovia", "1972-01-07T00:44:30Z"], // -00:44:30 -> GMT, off the quarter hour
      ["Asia/Kathmandu", "1985-12-31T18:30:00Z"], // +05:30 -> +05:45
    ];
    for (const [zone, iso] of cases) {
      const change = Date.parse(iso);
      for (const t of [
        change - 86_400_000,
        change - 1000,
        change - 1,
        change,
        change + 1,
        change + 999,
      ]) {
        expect(zoneOffsetMs(zone, t), `${zone} ${new Date(t).toISOString()}`).toBe(
          Math.round(IANAZone.create(zone).offset(t) * 60_000),
        );
      }
      expect(zoneOffsetMs(zone, change - 1000)).not.toBe(zoneOffsetMs(zone, change));
    }
  });
});

describe("calendar helpers", () => {
  test("civilFromDays and weekdayOfDay agree with Date for years 0000..9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: -719_528, max: 2_932_896 }), (days) => {
        const date = new Date(days * 86_400_000);
        expect(civilFromDays(days)).toEqual({
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
        });
        expect(weekdayOfDay(days) % 7).toBe(date.getUTCDay());
      }),
      { numRuns: 2000, seed: 20_261_122 },
    );
  });
});
