// Cross-check against rrule (npm), configured with the same rule and tzid, on
// occurrences away from offset changes (rrule.js reads the zone offset at the
// floating wall time instead of at the resolved instant, so it is wrong near
// transitions, and it has no gap/overlap policy of its own).
//
// rrule.js returns "floating" values: wall time in UTC fields, shifted by
// (zone offset - host offset). wallOfRRule() inverts that exact mapping, so this
// test passes under any host TZ; each wall time is then resolved by core.
import fc from "fast-check";
import rrulePkg from "rrule";
import { describe, expect, test } from "vitest";
import { resolveLocalMs } from "../src/recurrence/resolve";
import { parseRRule } from "../src/recurrence/rrule";
import { createSchedule } from "../src/recurrence/schedule";
import { zoneOffsetMs } from "../src/recurrence/zone-offset";
import { timeZoneNames } from "../src/time/timezones";
import { wallMs, wallOf } from "./recurrence-oracle";

const { RRule } = rrulePkg;
const DAY = 86_400_000;
const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_122;
const hostZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

const formats = new Map<string, Intl.DateTimeFormat>();

/** Wall time of instant `x` in `zone`, as UTC fields: what rrule.js's dateTZtoISO8601 computes. */
function wallIn(zone: string, x: number): number {
  let format = formats.get(zone);
  if (!format) {
    // The options toLocaleString("sv-SE", { timeZone }) uses, with the formatter kept.
    format = new Intl.DateTimeFormat("sv-SE", {
      timeZone: zone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(zone, format);
  }
  return Date.parse(`${format.format(x).replace(" ", "T")}Z`);
}

/** The floating wall time rrule.js meant by `value` (inverse of its dateInTimeZone). */
function wallOfRRule(value: number, zone: string): number {
  const shift = (floating: number) =>
    floating - (wallIn(zone, floating) - wallIn(hostZone, floating));
  let wall = value;
  for (let i = 0; i < 5 && shift(wall) !== value; i++) wall = value + (wall - shift(wall));
  if (shift(wall) !== value)
    throw new Error(`cannot invert rrule.js value ${new Date(value).toISOString()}`);
  return wall;
}

/** True when no offset change lies within two days of `t`. */
const awayFromTransitions = (zone: string, t: number) =>
  zoneOffsetMs(zone, t - 2 * DAY) === zoneOffsetMs(zone, t + 2 * DAY);

function compare(
  ruleText: string,
  untilDate: string | null,
  dtstartWall: number,
  zone: string,
  days: number,
) {
  const parsed = parseRRule(untilDate ? `${ruleText};UNTIL=${untilDate}` : ruleText);
  if (!parsed.ok) throw new Error(parsed.message);
  const dtstart = wallOf(dtstartWall);
  const schedule = createSchedule(parsed.rule, dtstart, zone);
  const from = dtstartWall - DAY;
  const to = dtstartWall + days * DAY;

  const ours: number[] = [];
  for (let t = schedule.next(from); t !== null && t <= to; t = schedule.next(t)) ours.push(t);

  // rrule.js compares UNTIL with floating wall times, so a date UNTIL is its last wall second.
  const options = RRule.parseString(ruleText);
  const until = untilDate
    ? new Date(
        Date.UTC(
          +untilDate.slice(0, 4),
          +untilDate.slice(4, 6) - 1,
          +untilDate.slice(6, 8),
          23,
          59,
          59,
        ),
      )
    : null;
  const rule = new RRule({ ...options, dtstart: new Date(dtstartWall), tzid: zone, until }, true);
  // Floating window a day wider on each side; the instant filter below trims it.
  const theirs = rule
    .between(new Date(from - DAY), new Date(to + 2 * DAY), true)
    .map((d) => resolveLocalMs(zone, wallOfRRule(d.getTime(), zone)))
    .filter((t) => t > from && t <= to)
    // rrule.js emits each day's times in the order BYHOUR lists them, not sorted.
    .sort((a, b) => a - b);

  const keep = (t: number) => awayFromTransitions(zone, t);
  expect(ours.filter(keep).map((t) => new Date(t).toISOString())).toEqual(
    theirs.filter(keep).map((t) => new Date(t).toISOString()),
  );
  return ours.length;
}

describe("agreement with rrule (npm) away from DST edges", () => {
  test.each([
    ["FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=9;BYMINUTE=30", "2020-03-02T09:30:00Z", "America/New_York"],
    ["FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=17;BYMINUTE=0", "2024-01-01T17:00:00Z", "Europe/Berlin"],
    ["FREQ=MONTHLY;BYMONTHDAY=31,-1", "2024-01-01T08:00:00Z", "Asia/Kathmandu"],
    ["FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=29", "2024-02-29T12:00:00Z", "Australia/Lord_Howe"],
    ["FREQ=DAILY;INTERVAL=3;BYHOUR=6,18;COUNT=40", "2025-06-01T06:00:00Z", "Pacific/Chatham"],
    ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU", "1997-08-05T09:00:00Z", "Asia/Kolkata"],
  ])("%s from %s in %s", (text, start, zone) => {
    expect(compare(text, null, Date.parse(start), zone, 400)).toBeGreaterThan(0);
  });

  test("known rrule.js bug #71: BYDAY mixing plain and ordinal days is a union (RFC 5545), rrule.js returns none", () => {
    const parsed = parseRRule("FREQ=MONTHLY;BYDAY=MO,-1TU");
    if (!parsed.ok) throw new Error(parsed.message);
    const schedule = createSchedule(parsed.rule, wallOf(Date.UTC(1990, 0, 1)), "Etc/UTC");
    const ours: string[] = [];
    for (let t = schedule.next(0); t !== null && t < Date.UTC(1990, 1, 1); t = schedule.next(t)) {
      ours.push(new Date(t).toISOString().slice(0, 10));
    }
    expect(ours).toEqual([
      "1990-01-01",
      "1990-01-08",
      "1990-01-15",
      "1990-01-22",
      "1990-01-29",
      "1990-01-30",
    ]);
    const rule = new RRule(
      {
        ...RRule.parseString("FREQ=MONTHLY;BYDAY=MO,-1TU"),
        dtstart: new Date(Date.UTC(1990, 0, 1)),
        tzid: "UTC",
        until: new Date(Date.UTC(1990, 1, 1)), // or it searches to the year 9999
      },
      true,
    );
    expect(
      rule.between(new Date(Date.UTC(1990, 0, 1)), new Date(Date.UTC(1990, 1, 1)), true),
    ).toEqual([]);
  });

  test("random zones and rules", () => {
    const ruleArb = fc.record({
      freq: fc.constantFrom("DAILY", "WEEKLY", "MONTHLY"),
      interval: fc.integer({ min: 1, max: 4 }),
      byDay: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
      nth: fc.array(
        fc.integer({ min: -5, max: 5 }).filter((n) => n !== 0),
        { maxLength: 3 },
      ),
      byMonthDay: fc.uniqueArray(
        fc.integer({ min: -31, max: 31 }).filter((n) => n !== 0),
        { maxLength: 2 },
      ),
      byHour: fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { maxLength: 2 }),
      byMinute: fc.uniqueArray(fc.constantFrom(0, 15, 30, 45), { maxLength: 2 }),
      count: fc.option(fc.integer({ min: 1, max: 30 })),
      untilDays: fc.option(fc.integer({ min: 0, max: 80 })),
      wkst: fc.integer({ min: 0, max: 6 }),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...timeZoneNames),
        ruleArb,
        fc.integer({ min: Date.UTC(1990, 0, 1) / 60_000, max: Date.UTC(2035, 0, 1) / 60_000 }),
        (zone, r, startMinutes) => {
          const dtstartWall = startMinutes * 60_000;
          const parts = [`FREQ=${r.freq}`, `INTERVAL=${r.interval}`, `WKST=${WEEKDAYS[r.wkst]}`];
          if (r.byDay.length) {
            // All entries with an ordinal or none: rrule.js returns nothing for a
            // mix such as BYDAY=MO,-1TU (jkbrzt/rrule#71; see the test above).
            const ordinals = r.freq === "MONTHLY" && r.nth.length >= r.byDay.length;
            const days = r.byDay.map((d, i) =>
              ordinals ? `${r.nth[i]}${WEEKDAYS[d]}` : WEEKDAYS[d],
            );
            parts.push(`BYDAY=${days.join(",")}`);
          }
          if (r.byMonthDay.length && r.freq !== "WEEKLY")
            parts.push(`BYMONTHDAY=${r.byMonthDay.join(",")}`);
          // Sorted lists: rrule.js generates each day's times in list order, so with
          // BYMINUTE=30,0 its COUNT=1 occurrence is 00:30, not the chronological 00:00.
          const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b).join(",");
          if (r.byHour.length) parts.push(`BYHOUR=${sorted(r.byHour)}`);
          if (r.byMinute.length) parts.push(`BYMINUTE=${sorted(r.byMinute)}`);
          let untilDate: string | null = null;
          if (r.count !== null) parts.push(`COUNT=${r.count}`);
          else if (r.untilDays !== null) {
            untilDate = new Date(dtstartWall + r.untilDays * DAY)
              .toISOString()
              .slice(0, 10)
              .replace(/-/g, "");
          }
          compare(parts.join(";"), untilDate, wallMs(wallOf(dtstartWall)), zone, 60);
        },
      ),
      { numRuns: 40, seed },
    );
  });
});
