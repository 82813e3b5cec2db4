// intlOffsetMs (src/time/intl-offset.ts) against two independent readings of the same tz data:
// ICU's own offset text (timeZoneName "longOffset", "GMT-04:56:02"), which never goes through
// the wall-clock fields and the calendar arithmetic intlOffsetMs does, and luxon's IANAZone
// (its own formatter and Date.UTC arithmetic). Zones without DST (UTC, Etc/GMT±N) give an
// offset known without any tz data, over the whole range of Date, BC years included.
import fc from "fast-check";
import { IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import { cachedFormats, intlOffsetMs, isKnownZone, MAX_FORMATS } from "../src/time/intl-offset";

const SECOND = 1000;
const HOUR = 3_600_000;
/** The range of Date: ±8.64e15 ms, about 271,821 BC to 275,760 AD. */
const MAX_INSTANT = 8.64e15;

/** ICU's offset of `zone` at `instant` as it writes it ("GMT", "GMT+05:30", "GMT-04:56:02"), in ms. */
function longOffsetMs(zone: string, instant: number): number {
  const text = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(instant)
    .find((part) => part.type === "timeZoneName")!.value;
  if (text === "GMT") return 0;
  const m = /^GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) throw new Error(`unexpected offset text ${text}`);
  const ms = ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4] ?? 0)) * SECOND;
  return m[1] === "-" ? -ms : ms;
}

/** Epoch ms of a UTC midnight; unlike Date.UTC, years 0..99 are themselves. */
function utc(year: number, monthIndex: number, day: number): number {
  return new Date(0).setUTCFullYear(year, monthIndex, day);
}

/** Zones with DST, LMT offsets in seconds, half and quarter hours, and a date-line jump. */
const ZONES = [
  "America/New_York",
  "America/St_Johns",
  "America/Sao_Paulo",
  "Europe/Berlin",
  "Europe/London",
  "Europe/Dublin", // negative DST in the tz source
  "Africa/Casablanca", // DST switched off for Ramadan
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Australia/Lord_Howe", // half-hour DST
  "Australia/Adelaide",
  "Pacific/Chatham",
  "Pacific/Apia", // skipped 2011-12-30
  "Pacific/Kiritimati",
  "Antarctica/Troll", // +02 DST on a +00 base
];

describe("intlOffsetMs", () => {
  it("agrees with ICU's offset text and with luxon in zones with DST, LMT and odd offsets", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        // 1800 to 2100: LMT, the first standard times, every DST rule since.
        fc.integer({ min: Date.UTC(1800, 0, 1), max: Date.UTC(2100, 0, 1) }),
        (zone, instant) => {
          const offset = intlOffsetMs(zone, instant);
          expect(offset).toBe(longOffsetMs(zone, instant));
          // luxon answers in minutes, an LMT offset's seconds as a fraction.
          expect(offset / 60_000).toBeCloseTo(new IANAZone(zone).offset(instant), 9);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("finds each DST change of 2026 at its second: the old offset one second before, the new at it", () => {
    const changes = [
      ["America/New_York", "2026-03-08T07:00:00Z", -5, -4],
      ["America/New_York", "2026-11-01T06:00:00Z", -4, -5],
      ["Europe/Berlin", "2026-03-29T01:00:00Z", 1, 2],
      ["Europe/Berlin", "2026-10-25T01:00:00Z", 2, 1],
      ["Australia/Lord_Howe", "2026-04-04T15:00:00Z", 11, 10.5],
      ["America/St_Johns", "2026-03-08T05:30:00Z", -3.5, -2.5],
    ] as const;
    for (const [zone, at, before, after] of changes) {
      const change = Date.parse(at);
      for (const t of [change - SECOND, change - 1]) {
        expect(intlOffsetMs(zone, t), `${zone} ${t}`).toBe(before * HOUR);
        expect(longOffsetMs(zone, t)).toBe(before * HOUR);
      }
      for (const t of [change, change + 999, change + SECOND]) {
        expect(intlOffsetMs(zone, t), `${zone} ${t}`).toBe(after * HOUR);
        expect(longOffsetMs(zone, t)).toBe(after * HOUR);
      }
    }
  });

  it("keeps an LMT offset's seconds", () => {
    const instant = Date.UTC(1850, 5, 1);
    // New York's LMT, -4:56:02 in the tz source.
    expect(intlOffsetMs("America/New_York", instant)).toBe(-(4 * 3600 + 56 * 60 + 2) * SECOND);
    expect(longOffsetMs("America/New_York", instant)).toBe(
      intlOffsetMs("America/New_York", instant),
    );
  });

  it("is 0 in UTC and the zone's hours in Etc/GMT±N at any instant Date holds, BC years and milliseconds included", () => {
    // Etc/GMT-14 is UTC+14 and Etc/GMT+12 is UTC-12: POSIX signs, inverted.
    const fixed = {
      UTC: 0,
      "Etc/GMT-14": 14 * HOUR,
      "Etc/GMT+12": -12 * HOUR,
      "Etc/GMT-5": 5 * HOUR,
    };
    // Keep the zone's local time inside Date's range too.
    const instants = fc.oneof(
      fc.integer({ min: -MAX_INSTANT + 14 * HOUR, max: MAX_INSTANT - 14 * HOUR }),
      // Around 1 BC / 1 AD (year 0 is 1 BC) and 1970, where floor and trunc differ.
      fc.integer({ min: utc(-2, 0, 1), max: utc(2, 0, 1) }),
      fc.integer({ min: -3 * SECOND, max: 3 * SECOND }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(fixed)), instants, (zone, instant) => {
        expect(intlOffsetMs(zone, instant)).toBe(fixed[zone as keyof typeof fixed]);
      }),
      { numRuns: 300 },
    );
    for (const instant of [-MAX_INSTANT, MAX_INSTANT, -1, -999, -1000, -1001, 1, 999, 1001]) {
      expect(intlOffsetMs("UTC", instant), String(instant)).toBe(0);
    }
    // 1 BC's last second and 1 AD's first, on the wall clock of a zone east of UTC.
    const newYear1Ad = utc(0, 11, 31) + 10 * HOUR;
    expect(intlOffsetMs("Etc/GMT-14", newYear1Ad - SECOND)).toBe(14 * HOUR);
    expect(intlOffsetMs("Etc/GMT-14", newYear1Ad)).toBe(14 * HOUR);
  });

  it("answers the same offset for every millisecond of a second", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: -4e12, max: 4e12 }),
        fc.integer({ min: 0, max: 999 }),
        (zone, seconds, ms) => {
          const whole = seconds * SECOND;
          expect(intlOffsetMs(zone, whole + ms)).toBe(intlOffsetMs(zone, whole));
        },
      ),
    );
  });

  it("refuses a non-finite instant and an unknown zone with its own RangeError", () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => intlOffsetMs("UTC", bad)).toThrow(
        new RangeError("An instant must be a finite number"),
      );
    }
    expect(() => intlOffsetMs("Mars/Olympus_Mons", 0)).toThrow(
      new RangeError('Unknown IANA time zone: "Mars/Olympus_Mons"'),
    );
  });
});

describe("isKnownZone", () => {
  it.each(["Europe/Berlin", "europe/berlin", "US/Eastern", "Asia/Calcutta", "UTC", "Etc/GMT-14"])(
    "knows %s",
    (zone) => {
      expect(isKnownZone(zone)).toBe(true);
      expect(isKnownZone(zone)).toBe(true); // the second time from the formatter cache
    },
  );

  it.each(["Mars/Olympus_Mons", "", "Europe/Berlin ", "GMT+25"])("does not know %j", (zone) => {
    expect(isKnownZone(zone)).toBe(false);
    expect(isKnownZone(zone)).toBe(false);
  });

  it("knows exactly the zones Intl accepts", () => {
    for (const zone of Intl.supportedValuesOf("timeZone"))
      expect(isKnownZone(zone), zone).toBe(true);
  });
});

describe("the formatter cache", () => {
  /** `n` spellings of Africa/Abidjan, each a zone Intl knows and a key of its own; none starts
   * with a capital, so no other test of this file has used one. */
  function spellings(n: number): string[] {
    const letters = [..."africaabidjan"];
    return Array.from({ length: n }, (_, k) => {
      const bits = 2 * (k + 1);
      const cased = letters.map((c, i) => ((bits >> i) & 1 ? c.toUpperCase() : c)).join("");
      return `${cased.slice(0, 6)}/${cased.slice(6)}`;
    });
  }

  it("keeps one formatter per spelling, at most MAX_FORMATS, starting over when full", () => {
    let expected = cachedFormats();
    // More new spellings than the cache holds, so it fills at least once whatever came before.
    for (const zone of spellings(MAX_FORMATS + 10)) {
      expect(isKnownZone(zone), zone).toBe(true);
      expected = expected >= MAX_FORMATS ? 1 : expected + 1;
      expect(cachedFormats()).toBe(expected);
      // Read again: a hit, nothing added.
      expect(intlOffsetMs(zone, Date.UTC(2026, 0, 1))).toBe(0);
      expect(cachedFormats()).toBe(expected);
    }
    // A zone Intl refuses is never kept.
    expect(isKnownZone("Mars/Olympus_Mons")).toBe(false);
    expect(cachedFormats()).toBe(expected);
  });
});
