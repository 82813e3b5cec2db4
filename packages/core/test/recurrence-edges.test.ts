// Edges of the recurrence rules that the table and property tests leave loose: the
// bounds of a search (UNTIL as a date, the year-10000 horizon, instants before DTSTART),
// COUNT over months whose candidates arrive out of order or not at all, ordinals that fall
// on the 1st or nowhere, long runs of empty periods, and the memo of compiled schedules.
import { describe, expect, test } from "vitest";
import { boundedCache } from "../src/recurrence/_bounded-cache";
import { civilFromDays } from "../src/recurrence/_local";
import { compileRecurrence } from "../src/recurrence/compile";
import { nextOccurrence, previousOccurrence } from "../src/recurrence/occurrences";
import { parseRRule, type RRule } from "../src/recurrence/rrule";
import { createSchedule } from "../src/recurrence/schedule";
import { daysFromCivil } from "../src/time/_calendar";
import { type LocalDateTime, parseLocalDateTime } from "../src/time/local-date-time";
import { naiveOccurrences } from "./recurrence-oracle";

const local = (text: string): LocalDateTime => {
  const value = parseLocalDateTime(text);
  if (value === null) throw new Error(text);
  return value;
};
const rule = (text: string): RRule => {
  const parsed = parseRRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
};
const iso = (t: number | null) =>
  t === null ? null : new Date(t).toISOString().replace(".000", "");
const ms = (text: string) => Date.parse(text);

/** Every occurrence of a COUNT rule, as ISO strings. */
function all(rrule: string, dtstart: string, zone = "Etc/UTC"): (string | null)[] {
  const s = createSchedule(rule(rrule), local(dtstart), zone);
  const out: (string | null)[] = [];
  for (let t = s.next(Number.NEGATIVE_INFINITY); t !== null; t = s.next(t)) out.push(iso(t));
  return out;
}

/** The same list from the day-by-day oracle (recurrence-oracle.ts), through `lastWall`. */
function oracle(rrule: string, dtstart: string, lastWall: string): (string | null)[] {
  return naiveOccurrences(rule(rrule), local(dtstart), "Etc/UTC", ms(lastWall)).map(iso);
}

describe("COUNT counts wall times in wall-clock order", () => {
  test("MONTHLY;BYDAY=MO,FR: Mondays and Fridays interleave before counting", () => {
    const rrule = "FREQ=MONTHLY;BYDAY=MO,FR;COUNT=4";
    expect(all(rrule, "2026-01-01T09:00")).toEqual([
      "2026-01-02T09:00:00Z",
      "2026-01-05T09:00:00Z",
      "2026-01-09T09:00:00Z",
      "2026-01-12T09:00:00Z",
    ]);
    expect(all(rrule, "2026-01-01T09:00")).toEqual(oracle(rrule, "2026-01-01T09:00", "2026-12-31"));
  });

  test("MONTHLY;BYMONTHDAY=20,5: days sorted before counting", () => {
    const rrule = "FREQ=MONTHLY;BYMONTHDAY=20,5;COUNT=3";
    expect(all(rrule, "2026-01-01T09:00")).toEqual([
      "2026-01-05T09:00:00Z",
      "2026-01-20T09:00:00Z",
      "2026-02-05T09:00:00Z",
    ]);
  });

  test("a month without DTSTART's day generates nothing, so it uses up none of COUNT", () => {
    expect(all("FREQ=MONTHLY;COUNT=3", "2026-01-31T09:00")).toEqual([
      "2026-01-31T09:00:00Z",
      "2026-03-31T09:00:00Z",
      "2026-05-31T09:00:00Z",
    ]);
  });

  test("DAILY;BYMONTHDAY=1,15: any listed day matches, other days use up none of COUNT", () => {
    const rrule = "FREQ=DAILY;BYMONTHDAY=1,15;COUNT=3";
    expect(all(rrule, "2026-01-01T09:00")).toEqual([
      "2026-01-01T09:00:00Z",
      "2026-01-15T09:00:00Z",
      "2026-02-01T09:00:00Z",
    ]);
    expect(all(rrule, "2026-01-01T09:00")).toEqual(oracle(rrule, "2026-01-01T09:00", "2026-03-01"));
  });
});

describe("ordinals from the month's end", () => {
  test("-5TH is the 1st in a month whose first Thursday is the 1st and has five", () => {
    // January 2026 starts on a Thursday: 1, 8, 15, 22, 29.
    const rrule = "FREQ=MONTHLY;BYDAY=-5TH;COUNT=3";
    const got = all(rrule, "2026-01-01T09:00");
    expect(got[0]).toBe("2026-01-01T09:00:00Z");
    expect(got).toEqual(oracle(rrule, "2026-01-01T09:00", "2027-12-31"));
  });

  test("-5MO never falls in a month with four Mondays (nor in the month before it)", () => {
    // February 2026 has four Mondays; March has five (2, 9, 16, 23, 30).
    expect(all("FREQ=MONTHLY;BYDAY=-5MO;COUNT=2", "2026-02-01T09:00")).toEqual([
      "2026-03-02T09:00:00Z",
      "2026-06-01T09:00:00Z",
    ]);
  });
});

describe("long runs of periods without an occurrence", () => {
  // Every 999th day that is a Friday the 13th: 999 and the 400-year cycle of 146,097 days
  // share the factor 27, so the pattern repeats after 5,411 periods, not 146.
  const r = rule("FREQ=DAILY;INTERVAL=999;BYDAY=FR;BYMONTHDAY=13");
  const start = local("2026-01-01T09:00");

  test("343 empty periods (about 940 years) between two occurrences", () => {
    expect(iso(nextOccurrence(r, start, "Etc/UTC", ms("3987-02-13T09:00:00Z")))).toBe(
      "4925-04-13T09:00:00Z",
    );
    expect(iso(previousOccurrence(r, start, "Etc/UTC", ms("4925-04-13T08:59:59Z")))).toBe(
      "3987-02-13T09:00:00Z",
    );
  });
});

describe("the ends of a search", () => {
  test("UNTIL as a date: a wall time at midnight after that day is out", () => {
    const daily = rule("FREQ=DAILY;UNTIL=20260105");
    const start = local("2026-01-01T00:00");
    expect(iso(nextOccurrence(daily, start, "Etc/UTC", ms("2026-01-04T12:00:00Z")))).toBe(
      "2026-01-05T00:00:00Z",
    );
    expect(nextOccurrence(daily, start, "Etc/UTC", ms("2026-01-05T00:00:00Z"))).toBeNull();
    expect(iso(previousOccurrence(daily, start, "Etc/UTC", Number.POSITIVE_INFINITY))).toBe(
      "2026-01-05T00:00:00Z",
    );
  });

  test("UNTIL as a date ends a week mid-period: its later weekdays are out", () => {
    // Monday 5 January to Wednesday 7 January; Thursday the 8th is after UNTIL.
    const weekly = rule("FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20260107");
    const start = local("2026-01-05T09:00");
    expect(iso(previousOccurrence(weekly, start, "Etc/UTC", Number.POSITIVE_INFINITY))).toBe(
      "2026-01-05T09:00:00Z",
    );
    expect(nextOccurrence(weekly, start, "Etc/UTC", ms("2026-01-05T09:00:00Z"))).toBeNull();
  });

  test("nothing at 10000-01-01T00:00: the horizon is exclusive", () => {
    const daily = rule("FREQ=DAILY");
    const start = local("9999-12-30T00:00");
    expect(iso(nextOccurrence(daily, start, "Etc/UTC", ms("9999-12-30T00:00:00Z")))).toBe(
      "9999-12-31T00:00:00Z",
    );
    expect(nextOccurrence(daily, start, "Etc/UTC", ms("9999-12-31T00:00:00Z"))).toBeNull();
    expect(iso(previousOccurrence(daily, start, "Etc/UTC", Number.POSITIVE_INFINITY))).toBe(
      "9999-12-31T00:00:00Z",
    );
  });

  test("-Infinity: next is the first occurrence, at once; previous is null", () => {
    const schedule = createSchedule(
      rule("FREQ=DAILY;BYHOUR=9"),
      local("2026-01-01T09:00"),
      "America/New_York",
    );
    const started = performance.now();
    for (let i = 0; i < 50; i++) {
      expect(iso(schedule.next(Number.NEGATIVE_INFINITY))).toBe("2026-01-01T14:00:00Z");
    }
    // A scan to the year-10000 horizon per call would take seconds.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(schedule.previous(Number.NEGATIVE_INFINITY)).toBeNull();
    expect(schedule.previous(ms("2026-01-01T13:59:59Z"))).toBeNull();
  });
});

describe("previous within the period of DTSTART", () => {
  test("the candidates before DTSTART end the backward scan only after the later ones are seen", () => {
    // Period 0 (1 January) generates 08:00, 10:00 and 12:00; 08:00 is before DTSTART (09:00)
    // and ends the scan, so the scan must reach it last, after 10:00.
    const r = rule("FREQ=DAILY;BYHOUR=8,10,12");
    const start = local("2026-01-01T09:00");
    expect(iso(previousOccurrence(r, start, "Etc/UTC", ms("2026-01-01T11:00:00Z")))).toBe(
      "2026-01-01T10:00:00Z",
    );
    expect(iso(previousOccurrence(r, start, "Etc/UTC", ms("2026-01-01T12:30:00Z")))).toBe(
      "2026-01-01T12:00:00Z",
    );
    expect(previousOccurrence(r, start, "Etc/UTC", ms("2026-01-01T09:59:59Z"))).toBeNull();
  });
});

describe("previous across a spring-forward gap (America/New_York, 2026-03-08 02:00 -> 03:00)", () => {
  test("of two wall times after the gap, the later instant is the answer", () => {
    // 03:10 EDT = 07:10Z, 03:40 EDT = 07:40Z.
    const r = rule("FREQ=DAILY;BYHOUR=3;BYMINUTE=10,40");
    const start = local("2026-03-01T03:10");
    expect(iso(previousOccurrence(r, start, "America/New_York", ms("2026-03-08T07:45:00Z")))).toBe(
      "2026-03-08T07:40:00Z",
    );
  });

  test("a wall time in the gap that lands after an earlier-read one is found", () => {
    // 02:40 is in the gap and lands at 03:40 EDT (07:40Z); 03:40 itself is excluded, which
    // does not exclude 02:40 (EXDATE names wall times); 03:10 is 07:10Z.
    const r = rule("FREQ=DAILY;BYHOUR=2,3;BYMINUTE=10,40");
    const start = local("2026-03-01T02:10");
    const options = { exdates: [local("2026-03-08T03:40")] };
    expect(
      iso(previousOccurrence(r, start, "America/New_York", ms("2026-03-08T07:45:00Z"), options)),
    ).toBe("2026-03-08T07:40:00Z");
    expect(
      iso(previousOccurrence(r, start, "America/New_York", ms("2026-03-08T07:39:59Z"), options)),
    ).toBe("2026-03-08T07:10:00Z");
  });
});

describe("parsing", () => {
  test("surrounding whitespace and a leading RRULE: are accepted", () => {
    expect(parseRRule("  RRULE:FREQ=DAILY  ")).toMatchObject({ ok: true, rule: { freq: "DAILY" } });
  });

  test("messages name what is wrong", () => {
    const message = (text: string) => {
      const parsed = parseRRule(text);
      if (parsed.ok) throw new Error(`accepted ${text}`);
      return parsed.message;
    };
    expect(message("FREQ=DAILY; ;BYHOUR=9")).toContain("part 2 is empty");
    expect(message("FREQ=YEARLY")).toBe(
      'Invalid RRULE "FREQ=YEARLY": part "FREQ=YEARLY": FREQ must be DAILY, WEEKLY or MONTHLY (for yearly, use FREQ=MONTHLY;INTERVAL=12).',
    );
    expect(message("FREQ=HOURLY")).toBe(
      'Invalid RRULE "FREQ=HOURLY": part "FREQ=HOURLY": FREQ must be DAILY, WEEKLY or MONTHLY.',
    );
    expect(message("FREQ=MONTHLY;BYDAY=10MO")).toContain('so "10MO" never occurs');
    expect(message("FREQ=DAILY;UNTIL=20260230T000000Z")).toContain(
      'part "UNTIL=20260230T000000Z": 20260230 is not a calendar date.',
    );
    expect(message(null as unknown as string)).toBe('Invalid RRULE "": the rule is empty.');
    expect(message(undefined as unknown as string)).toBe('Invalid RRULE "": the rule is empty.');
  });

  test("BYDAY is kept sorted by weekday, then ordinal", () => {
    expect(rule("FREQ=MONTHLY;BYDAY=FR,-1FR").byDay).toEqual([
      { weekday: 5, nth: -1 },
      { weekday: 5, nth: null },
    ]);
    expect(rule("FREQ=MONTHLY;BYDAY=1FR,-1FR,FR,MO").byDay).toEqual([
      { weekday: 1, nth: null },
      { weekday: 5, nth: -1 },
      { weekday: 5, nth: null },
      { weekday: 5, nth: 1 },
    ]);
  });

  test("an unknown zone is refused by name", () => {
    expect(() =>
      createSchedule(rule("FREQ=DAILY"), local("2026-01-01T00:00"), "Nowhere/City"),
    ).toThrow('Unknown IANA time zone: "Nowhere/City"');
  });
});

describe("calendar arithmetic", () => {
  test("civilFromDays inverts daysFromCivil at the ends of 400-year eras", () => {
    for (const year of [1600, 2000, 2400, 1, 9996]) {
      for (const [month, day] of [
        [2, 28],
        [2, 29],
        [3, 1],
        [12, 31],
        [1, 1],
      ] as const) {
        if (month === 2 && day === 29 && year % 4 !== 0) continue;
        expect(civilFromDays(daysFromCivil(year, month, day))).toEqual({ year, month, day });
      }
    }
  });
});

describe("memos", () => {
  test("a bounded cache keeps its newest `limit` entries and forgets the oldest", () => {
    let made = 0;
    const cache = boundedCache<string, { key: string }>(2);
    const get = (key: string) => cache.get(key, () => ({ key: `${key}${++made}` }));
    const a = get("a");
    expect(get("a")).toBe(a);
    const b = get("b");
    expect(get("a")).toBe(a); // two entries fit a limit of two
    expect(get("b")).toBe(b);
    expect(made).toBe(2);
    const c = get("c"); // a third: "a", the oldest, goes
    expect(get("b")).toBe(b);
    expect(get("c")).toBe(c);
    expect(made).toBe(3);
    expect(get("a")).not.toBe(a);
    expect(made).toBe(4);
  });

  test("compileRecurrence returns one schedule per definition text", () => {
    const spec = { rrule: "FREQ=DAILY;BYHOUR=7", dtstart: "2031-05-01T07:00" };
    const s = compileRecurrence(spec, "Asia/Kolkata");
    expect(compileRecurrence({ ...spec }, "Asia/Kolkata")).toBe(s);
    expect(compileRecurrence(spec, "Asia/Tokyo")).not.toBe(s);
    expect(iso(s.next(ms("2031-05-01T00:00:00Z")))).toBe("2031-05-01T01:30:00Z");
  });

  test("exdates are told apart in the memo: two dates are not one joined text", () => {
    const spec = { rrule: "FREQ=DAILY", dtstart: "2031-06-01T09:00" };
    const two = compileRecurrence(
      { ...spec, exdates: ["2031-06-02T09:00", "2031-06-03T09:00"] },
      "Etc/UTC",
    );
    expect(iso(two.next(ms("2031-06-01T09:00:00Z")))).toBe("2031-06-04T09:00:00Z");
    expect(() =>
      compileRecurrence({ ...spec, exdates: ["2031-06-02T09:002031-06-03T09:00"] }, "Etc/UTC"),
    ).toThrow(RangeError);
  });

  test("an invalid rule, DTSTART or EXDATE is a RangeError naming it", () => {
    expect(() =>
      compileRecurrence({ rrule: "FREQ=YEARLY", dtstart: "2031-01-01T00:00" }, "Etc/UTC"),
    ).toThrow(/FREQ must be DAILY, WEEKLY or MONTHLY/);
    expect(() =>
      compileRecurrence({ rrule: "FREQ=DAILY", dtstart: "2031-13-01T00:00" }, "Etc/UTC"),
    ).toThrow("invalid dtstart: 2031-13-01T00:00");
    expect(() =>
      compileRecurrence(
        { rrule: "FREQ=DAILY", dtstart: "2031-01-01T00:00", exdates: ["2031-01-32T00:00"] },
        "Etc/UTC",
      ),
    ).toThrow("invalid exdate: 2031-01-32T00:00");
  });
});

describe("previous just after a fall-back (America/New_York, 2026-11-01 01:00-02:00 twice)", () => {
  test("a wall time read after `at` in EST can still be the answer, at its EDT instant", () => {
    // at = 06:30Z = 01:30 EST (second pass). 01:45 is the earlier instant, 01:45 EDT = 05:45Z.
    const r = rule("FREQ=DAILY;BYHOUR=1;BYMINUTE=30,45");
    const start = local("2026-10-01T01:30");
    expect(iso(previousOccurrence(r, start, "America/New_York", ms("2026-11-01T06:30:00Z")))).toBe(
      "2026-11-01T05:45:00Z",
    );
  });
});
