// The zone-offset cache (src/recurrence/zone-offset.ts): exact answers, what each lookup
// costs in offset reads (the cache's whole point), its bounds, and the check of its
// assumption (at most one offset change per UTC day) with the fallback a zone takes when its
// data breaks it. Offsets come from an injected source: the runtime's Intl, counted, or
// synthetic zones with changes where a test wants them.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { nextOccurrence } from "../src/recurrence/occurrences";
import { resolveLocalMs } from "../src/recurrence/resolve";
import { parseRRule } from "../src/recurrence/rrule";
import { createSchedule } from "../src/recurrence/schedule";
import {
  MAX_DAYS_PER_ZONE,
  MAX_ZONES,
  type OffsetSource,
  useOffsetSource,
  zoneOffsetMs,
} from "../src/recurrence/zone-offset";
import { intlOffsetMs } from "../src/time/intl-offset";

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** `inner` with a count of its calls. */
function counted(inner: OffsetSource) {
  const seen = { calls: 0, zones: new Set<string>() };
  const source: OffsetSource = (zone, instant) => {
    seen.calls++;
    seen.zones.add(zone);
    return inner(zone, instant);
  };
  useOffsetSource(source);
  return seen;
}

/** The calls `lookups` cost. */
function cost(seen: { calls: number }, lookups: () => void): number {
  const before = seen.calls;
  lookups();
  return seen.calls - before;
}

/** A synthetic zone: `offsets[i]` from `changes[i - 1]` (inclusive) on, `offsets[0]` before. */
function steps(changes: number[], offsets: number[]): (instant: number) => number {
  return (instant) => {
    let i = 0;
    while (i < changes.length && instant >= changes[i]!) i++;
    return offsets[i]!;
  };
}

/** A source of synthetic zones by name; an unknown name is a RangeError like Intl's. */
function synthetic(zones: Record<string, (instant: number) => number>): OffsetSource {
  return (zone, instant) => {
    const offsetAt = zones[zone];
    if (offsetAt === undefined) throw new RangeError(`Unknown IANA time zone: "${zone}"`);
    return offsetAt(instant);
  };
}

afterEach(() => useOffsetSource());

describe("zoneOffsetMs against the runtime's tz data", () => {
  it("reads a day's two ends once, then answers the whole day from the cache", () => {
    const seen = counted(intlOffsetMs);
    const noon = Date.parse("2026-07-01T12:00:00Z");
    // The zone's first use checks it exists (one read), then the day's two ends.
    expect(cost(seen, () => zoneOffsetMs("Europe/Berlin", noon))).toBe(3);
    expect(zoneOffsetMs("Europe/Berlin", noon)).toBe(2 * HOUR);
    expect(cost(seen, () => zoneOffsetMs("Europe/Berlin", noon - 12 * HOUR))).toBe(0);
    expect(cost(seen, () => zoneOffsetMs("Europe/Berlin", noon + 12 * HOUR - 1))).toBe(0);
    // The next day is a new entry of a known zone.
    expect(cost(seen, () => zoneOffsetMs("Europe/Berlin", noon + DAY))).toBe(2);
  });

  it("finds a change to the second, checks it, and caches the day", () => {
    const seen = counted(intlOffsetMs);
    const change = Date.parse("2026-03-08T07:00:00Z"); // New York: EST -> EDT
    // (The expectations below read Intl directly, uncounted.)
    // Zone check, two ends, 17 bisection steps, the change itself and 23 whole hours.
    expect(cost(seen, () => zoneOffsetMs("America/New_York", change))).toBe(1 + 2 + 17 + 1 + 23);
    const probes = [
      change - 6 * HOUR,
      change - 1000,
      change - 1,
      change,
      change + 1,
      change + HOUR,
    ];
    expect(
      cost(seen, () => {
        for (const t of probes) {
          expect(zoneOffsetMs("America/New_York", t)).toBe(intlOffsetMs("America/New_York", t));
        }
      }),
    ).toBe(0);
    expect(zoneOffsetMs("America/New_York", change - 1)).toBe(-5 * HOUR);
    expect(zoneOffsetMs("America/New_York", change)).toBe(-4 * HOUR);
  });

  it("keeps the cache for every change of zones with odd histories (the check passes)", () => {
    // Steps of two weeks find the changes (DST lasts months; a change undone within two
    // weeks would only go unvisited), then the day of each; each change day is looked up.
    const zones = [
      "Pacific/Apia", // skipped 2011-12-30
      "Pacific/Kiritimati", // -10 -> +14 in 1994
      "Australia/Lord_Howe", // half-hour DST
      "Africa/Casablanca", // DST suspended for Ramadan
      "Antarctica/Troll", // +00 <-> +02
    ];
    const seen = counted(intlOffsetMs);
    const from = Date.parse("1990-01-01T00:00:00Z");
    const to = Date.parse("2030-01-01T00:00:00Z");
    const step = 14 * DAY;
    let changeDays = 0;
    for (const zone of zones) {
      const visited: number[] = [];
      let stepStart = intlOffsetMs(zone, from);
      for (let t = from; t < to; t += step) {
        const stepEnd = intlOffsetMs(zone, t + step);
        let dayStart = stepStart;
        for (let day = t; stepEnd !== stepStart && day < t + step; day += DAY) {
          const dayEnd = intlOffsetMs(zone, day + DAY);
          if (dayEnd !== dayStart) {
            zoneOffsetMs(zone, day);
            visited.push(day);
          }
          dayStart = dayEnd;
        }
        stepStart = stepEnd;
      }
      changeDays += visited.length;
      // Every change day stayed cached: no fallback to the exact path.
      expect(
        cost(seen, () => visited.forEach((day) => void zoneOffsetMs(zone, day))),
        zone,
      ).toBe(0);
    }
    expect(changeDays).toBeGreaterThan(100);
  });

  it("refuses an unknown zone with a RangeError", () => {
    expect(() => zoneOffsetMs("Mars/Olympus", 0)).toThrow(RangeError);
  });
});

describe("zoneOffsetMs on synthetic zones", () => {
  it("pins a single change anywhere in a day to the second", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -40_000, max: 40_000 }),
        fc.integer({ min: 1, max: 86_399 }),
        fc.integer({ min: -50_400, max: 50_400 }),
        fc.integer({ min: -50_400, max: 50_400 }),
        (day, second, a, b) => {
          fc.pre(a !== b);
          const change = day * DAY + second * 1000;
          const offsetAt = steps([change], [a * 1000, b * 1000]);
          const seen = counted(synthetic({ Z: offsetAt }));
          for (const t of [day * DAY, change - 1000, change - 1, change, change + 999]) {
            expect(zoneOffsetMs("Z", t)).toBe(offsetAt(t));
          }
          expect(zoneOffsetMs("Z", day * DAY + DAY - 1)).toBe(b * 1000);
          // The day stayed cached: the check passed.
          expect(cost(seen, () => zoneOffsetMs("Z", change))).toBe(0);
        },
      ),
      { numRuns: 200, seed: 20_261_129 },
    );
  });

  it("a day with two changes makes the zone fall back to exact, uncached reads", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -40_000, max: 40_000 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 86_399 }), { minLength: 2, maxLength: 2 }),
        fc.uniqueArray(fc.integer({ min: -50_400, max: 50_400 }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: DAY - 1 }), { minLength: 1, maxLength: 8 }),
        (day, seconds, offsets, probes) => {
          const changes = seconds.sort((x, y) => x - y).map((s) => day * DAY + s * 1000);
          const offsetAt = steps(
            changes,
            offsets.map((o) => o * 1000),
          );
          const seen = counted(synthetic({ Z: offsetAt }));
          for (const p of probes)
            expect(zoneOffsetMs("Z", day * DAY + p)).toBe(offsetAt(day * DAY + p));
          // From then on every lookup of the zone is one exact read, other days included.
          expect(cost(seen, () => zoneOffsetMs("Z", changes[0]!))).toBe(1);
          expect(cost(seen, () => zoneOffsetMs("Z", changes[1]! - 1))).toBe(1);
          expect(cost(seen, () => zoneOffsetMs("Z", (day + 3) * DAY))).toBe(1);
          expect(zoneOffsetMs("Z", changes[1]! - 1)).toBe(offsetAt(changes[1]! - 1));
        },
      ),
      { numRuns: 200, seed: 20_261_130 },
    );
  });

  it("sees a second change that ends the day on the offset the first one set", () => {
    // A -> B at 05:00, B -> C -> B between two whole hours: the ends are A and B, the
    // bisection finds 05:00, and only the check at 13:00 sees C.
    const day = 20_000;
    const changes = [day * DAY + 5 * HOUR, day * DAY + 12.5 * HOUR, day * DAY + 13.5 * HOUR];
    const offsetAt = steps(changes, [0, HOUR, 3 * HOUR, HOUR]);
    const seen = counted(synthetic({ Z: offsetAt }));
    expect(zoneOffsetMs("Z", day * DAY + 13 * HOUR)).toBe(3 * HOUR);
    expect(cost(seen, () => zoneOffsetMs("Z", day * DAY + 13 * HOUR))).toBe(1);
    expect(zoneOffsetMs("Z", day * DAY + 6 * HOUR)).toBe(HOUR);
  });

  it("sees a second change right after the first (the offset at the change differs)", () => {
    const day = -3;
    const changes = [day * DAY + 7 * HOUR + 10_000, day * DAY + 7 * HOUR + 20_000];
    const offsetAt = steps(changes, [0, 1800_000, HOUR]);
    const seen = counted(synthetic({ Z: offsetAt }));
    expect(zoneOffsetMs("Z", changes[0]!)).toBe(1800_000);
    expect(cost(seen, () => zoneOffsetMs("Z", changes[0]!))).toBe(1);
  });

  it("the fallback is per zone: other zones keep their cache", () => {
    const day = 100;
    const broken = steps([day * DAY + HOUR, day * DAY + 2 * HOUR], [0, HOUR, 2 * HOUR]);
    const fine = steps([day * DAY + HOUR], [0, HOUR]);
    const seen = counted(synthetic({ Broken: broken, Fine: fine }));
    zoneOffsetMs("Broken", day * DAY);
    zoneOffsetMs("Fine", day * DAY);
    expect(cost(seen, () => zoneOffsetMs("Fine", day * DAY + 3 * HOUR))).toBe(0);
    expect(cost(seen, () => zoneOffsetMs("Broken", day * DAY + 3 * HOUR))).toBe(1);
  });
});

describe("the cache's bounds", () => {
  const flat = () => 0;

  it(`holds ${MAX_ZONES} zones, and starts over with the next one`, () => {
    const names = Array.from({ length: MAX_ZONES + 1 }, (_, i) => `Z${i}`);
    const seen = counted(synthetic(Object.fromEntries(names.map((n) => [n, flat]))));
    for (const name of names.slice(0, MAX_ZONES)) zoneOffsetMs(name, 0);
    expect(
      cost(seen, () => names.slice(0, MAX_ZONES).forEach((n) => void zoneOffsetMs(n, 0))),
    ).toBe(0);
    zoneOffsetMs(names[MAX_ZONES]!, 0);
    // The first zone is read again: existence check and the day's two ends.
    expect(cost(seen, () => zoneOffsetMs("Z0", 0))).toBe(3);
    expect(cost(seen, () => zoneOffsetMs(names[MAX_ZONES]!, DAY / 2))).toBe(0);
  });

  it(`holds ${MAX_DAYS_PER_ZONE} days per zone, and starts over with the next one`, () => {
    const seen = counted(synthetic({ Z: flat }));
    for (let day = 0; day < MAX_DAYS_PER_ZONE; day++) zoneOffsetMs("Z", day * DAY);
    expect(cost(seen, () => zoneOffsetMs("Z", 0))).toBe(0);
    expect(cost(seen, () => zoneOffsetMs("Z", (MAX_DAYS_PER_ZONE - 1) * DAY))).toBe(0);
    zoneOffsetMs("Z", MAX_DAYS_PER_ZONE * DAY);
    expect(cost(seen, () => zoneOffsetMs("Z", 0))).toBe(2);
    expect(cost(seen, () => zoneOffsetMs("Z", MAX_DAYS_PER_ZONE * DAY + 1))).toBe(0);
  });

  it("injecting a source forgets what the cache held", () => {
    counted(synthetic({ Z: () => HOUR }));
    expect(zoneOffsetMs("Z", 0)).toBe(HOUR);
    counted(synthetic({ Z: () => 2 * HOUR }));
    expect(zoneOffsetMs("Z", 0)).toBe(2 * HOUR);
  });
});

describe("resolveLocalMs's offset reads", () => {
  it("reads two days' entries when the offset is the same a day either side", () => {
    const seen = counted(synthetic({ Z: () => 2 * HOUR }));
    const local = 20_000 * DAY + 12 * HOUR;
    // Existence check, then the days before and after: the wall time's own day is not read.
    expect(cost(seen, () => expect(resolveLocalMs("Z", local)).toBe(local - 2 * HOUR))).toBe(5);
  });
});

describe("a schedule's shortcuts read no offsets", () => {
  const rule = (text: string) => {
    const parsed = parseRRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  };
  const start = { year: 2026, month: 1, day: 1, hour: 9, minute: 0, second: 0 };
  const startLocal = Date.UTC(2026, 0, 1, 9);
  const until = Date.UTC(2026, 0, 10, 9);

  it("next(t) from UNTIL on, and previous(t) before DTSTART's earliest reading", () => {
    const seen = counted(synthetic({ Z: () => HOUR }));
    const schedule = createSchedule(rule("FREQ=DAILY;UNTIL=20260110T090000Z"), start, "Z");
    expect(cost(seen, () => expect(schedule.next(until)).toBeNull())).toBe(0);
    expect(cost(seen, () => expect(schedule.next(until + DAY)).toBeNull())).toBe(0);
    const firstPossible = startLocal - 16 * HOUR;
    expect(cost(seen, () => expect(schedule.previous(firstPossible - 1)).toBeNull())).toBe(0);
    // Both answer from the zone's offsets in between.
    expect(schedule.next(until - 2 * HOUR)).toBe(until - HOUR);
    expect(schedule.previous(startLocal)).toBe(startLocal - HOUR);
  });
});

describe("one-shot queries' cached schedules", () => {
  it("keep exception lists apart whose numbers join alike without a separator", () => {
    const parsed = parseRRule("FREQ=DAILY");
    if (!parsed.ok) throw new Error(parsed.message);
    const at = (ms: number) => {
      const d = new Date(ms);
      return {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth() + 1,
        day: d.getUTCDate(),
        hour: d.getUTCHours(),
        minute: d.getUTCMinutes(),
        second: d.getUTCSeconds(),
      };
    };
    // Wall times as local milliseconds: "1700000123000" + "1000" = "1700000" + "1230001000".
    const occurrence = 1_700_000_123_000; // 2023-11-14T22:15:23
    const start = at(occurrence - 4 * DAY);
    const after = occurrence - DAY / 2;
    const a = [at(occurrence), at(1000)];
    const b = [at(1_700_000), at(1_230_001_000)];
    expect(nextOccurrence(parsed.rule, start, "Etc/UTC", after, { exdates: a })).toBe(
      occurrence + DAY,
    );
    expect(nextOccurrence(parsed.rule, start, "Etc/UTC", after, { exdates: b })).toBe(occurrence);
    expect(nextOccurrence(parsed.rule, start, "Etc/UTC", after)).toBe(occurrence);
  });
});
