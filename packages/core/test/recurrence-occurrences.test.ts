// Table tests of the occurrence engine: which instants a rule produces, in which
// zone, around which calendar and time-zone oddities.
import { describe, expect, test } from "vitest";
import {
  nextOccurrence,
  occurrencesBetween,
  previousOccurrence,
} from "../src/recurrence/occurrences";
import { parseRRule, type RRule } from "../src/recurrence/rrule";
import { createSchedule } from "../src/recurrence/schedule";
import { type LocalDateTime, parseLocalDateTime } from "../src/time/local-date-time";

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

/** The first `n` occurrences after `from` as ISO strings. */
function first(
  rrule: string,
  dtstart: string,
  zone: string,
  from: string,
  n: number,
  exdates: string[] = [],
) {
  return occurrencesBetween(rule(rrule), local(dtstart), zone, ms(from), Number.POSITIVE_INFINITY, {
    limit: n,
    exdates: exdates.map(local),
  }).map(iso);
}

describe("frequencies and parts", () => {
  test("DAILY at DTSTART's time", () => {
    expect(first("FREQ=DAILY", "2026-01-01T09:00", "Etc/UTC", "2025-01-01T00:00:00Z", 3)).toEqual([
      "2026-01-01T09:00:00Z",
      "2026-01-02T09:00:00Z",
      "2026-01-03T09:00:00Z",
    ]);
  });

  test("DAILY with INTERVAL, BYHOUR and BYMINUTE expanding", () => {
    expect(
      first(
        "FREQ=DAILY;INTERVAL=3;BYHOUR=8,20;BYMINUTE=0,30",
        "2026-01-01T00:00",
        "Etc/UTC",
        "2026-01-01T00:00:00Z",
        6,
      ),
    ).toEqual([
      "2026-01-01T08:00:00Z",
      "2026-01-01T08:30:00Z",
      "2026-01-01T20:00:00Z",
      "2026-01-01T20:30:00Z",
      "2026-01-04T08:00:00Z",
      "2026-01-04T08:30:00Z",
    ]);
  });

  test("DAILY with BYSECOND", () => {
    expect(
      first(
        "FREQ=DAILY;BYHOUR=0;BYMINUTE=0;BYSECOND=15,45",
        "2026-01-01T00:00",
        "Etc/UTC",
        "2025-12-31T00:00:00Z",
        3,
      ),
    ).toEqual(["2026-01-01T00:00:15Z", "2026-01-01T00:00:45Z", "2026-01-02T00:00:15Z"]);
  });

  test("DAILY with BYDAY and BYMONTHDAY limiting (Friday the 13th)", () => {
    expect(
      first(
        "FREQ=DAILY;BYDAY=FR;BYMONTHDAY=13",
        "2026-01-01T12:00",
        "Etc/UTC",
        "2026-01-01T00:00:00Z",
        3,
      ),
    ).toEqual(["2026-02-13T12:00:00Z", "2026-03-13T12:00:00Z", "2026-11-13T12:00:00Z"]);
  });

  test("WEEKLY with BYDAY, in a zone's local time", () => {
    expect(
      first(
        "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=9;BYMINUTE=30",
        "2020-03-02T09:30",
        "America/New_York",
        "2020-03-01T00:00:00Z",
        5,
      ),
    ).toEqual([
      "2020-03-02T14:30:00Z",
      "2020-03-04T14:30:00Z",
      "2020-03-06T14:30:00Z",
      "2020-03-09T13:30:00Z", // after the spring-forward: 09:30 EDT
      "2020-03-11T13:30:00Z",
    ]);
  });

  test("WEEKLY without BYDAY uses DTSTART's weekday", () => {
    expect(first("FREQ=WEEKLY", "2026-01-07T18:00", "Etc/UTC", "2026-01-01T00:00:00Z", 2)).toEqual([
      "2026-01-07T18:00:00Z",
      "2026-01-14T18:00:00Z",
    ]);
  });

  test("WEEKLY;INTERVAL=2: WKST decides which weeks count (RFC 5545 3.3.10 example)", () => {
    // RFC 5545: DTSTART 1997-08-05 (a Tuesday), FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU.
    const mo = first(
      "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO",
      "1997-08-05T09:00",
      "Etc/UTC",
      "1997-01-01T00:00:00Z",
      10,
    );
    const su = first(
      "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU",
      "1997-08-05T09:00",
      "Etc/UTC",
      "1997-01-01T00:00:00Z",
      10,
    );
    expect(mo.map((t) => t?.slice(0, 10))).toEqual([
      "1997-08-05",
      "1997-08-10",
      "1997-08-19",
      "1997-08-24",
    ]);
    expect(su.map((t) => t?.slice(0, 10))).toEqual([
      "1997-08-05",
      "1997-08-17",
      "1997-08-19",
      "1997-08-31",
    ]);
  });

  test("MONTHLY without BYxxx: DTSTART's day of the month; months without it are skipped", () => {
    expect(first("FREQ=MONTHLY", "2026-01-31T10:00", "Etc/UTC", "2026-01-01T00:00:00Z", 4)).toEqual(
      [
        "2026-01-31T10:00:00Z",
        "2026-03-31T10:00:00Z",
        "2026-05-31T10:00:00Z",
        "2026-07-31T10:00:00Z",
      ],
    );
  });

  test("MONTHLY;BYMONTHDAY=31 skips short months; -1 is the last day of every month", () => {
    expect(
      first(
        "FREQ=MONTHLY;BYMONTHDAY=31",
        "2026-01-01T00:00",
        "Etc/UTC",
        "2026-01-01T00:00:00Z",
        3,
      ).map((t) => t?.slice(0, 10)),
    ).toEqual(["2026-01-31", "2026-03-31", "2026-05-31"]);
    expect(
      first(
        "FREQ=MONTHLY;BYMONTHDAY=-1",
        "2024-01-01T00:00",
        "Etc/UTC",
        "2024-01-01T00:00:00Z",
        4,
      ).map((t) => t?.slice(0, 10)),
    ).toEqual(["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30"]);
    expect(
      first(
        "FREQ=MONTHLY;BYMONTHDAY=-31,30",
        "2026-01-01T00:00",
        "Etc/UTC",
        "2025-12-31T00:00:00Z",
        4,
      ).map((t) => t?.slice(0, 10)),
    ).toEqual(["2026-01-01", "2026-01-30", "2026-03-01", "2026-03-30"]);
  });

  test("29 February: MONTHLY;BYMONTHDAY=29 skips February outside leap years", () => {
    expect(
      first(
        "FREQ=MONTHLY;BYMONTHDAY=29",
        "2025-01-01T12:00",
        "Etc/UTC",
        "2025-01-01T00:00:00Z",
        3,
      ).map((t) => t?.slice(0, 10)),
    ).toEqual(["2025-01-29", "2025-03-29", "2025-04-29"]);
  });

  test("29 February yearly: MONTHLY;INTERVAL=12 from a leap day, 2100 is not a leap year", () => {
    expect(
      first(
        "FREQ=MONTHLY;INTERVAL=12",
        "2024-02-29T12:00",
        "Europe/Berlin",
        "2024-01-01T00:00:00Z",
        3,
      ),
    ).toEqual(["2024-02-29T11:00:00Z", "2028-02-29T11:00:00Z", "2032-02-29T11:00:00Z"]);
    expect(
      iso(
        nextOccurrence(
          rule("FREQ=MONTHLY;INTERVAL=12"),
          local("2024-02-29T12:00"),
          "Etc/UTC",
          ms("2096-03-01T00:00:00Z"),
        ),
      ),
    ).toBe("2104-02-29T12:00:00Z");
  });

  test("MONTHLY with ordinal BYDAY: first Monday, last Friday, second-to-last Sunday", () => {
    expect(
      first(
        "FREQ=MONTHLY;BYDAY=1MO,-1FR",
        "2026-01-01T17:00",
        "Etc/UTC",
        "2026-01-01T00:00:00Z",
        4,
      ).map((t) => t?.slice(0, 10)),
    ).toEqual(["2026-01-05", "2026-01-30", "2026-02-02", "2026-02-27"]);
    expect(
      first(
        "FREQ=MONTHLY;BYDAY=-2SU",
        "2026-01-01T17:00",
        "Etc/UTC",
        "2026-01-01T00:00:00Z",
        2,
      ).map((t) => t?.slice(0, 10)),
    ).toEqual(["2026-01-18", "2026-02-15"]);
  });

  test("MONTHLY;BYDAY=5FR only in months with five Fridays", () => {
    expect(
      first("FREQ=MONTHLY;BYDAY=5FR", "2026-01-01T17:00", "Etc/UTC", "2026-01-01T00:00:00Z", 3).map(
        (t) => t?.slice(0, 10),
      ),
    ).toEqual(["2026-01-30", "2026-05-29", "2026-07-31"]);
  });

  test("MONTHLY with BYDAY limiting BYMONTHDAY (Friday the 13th)", () => {
    expect(
      first(
        "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
        "2026-01-01T12:00",
        "Etc/UTC",
        "2026-01-01T00:00:00Z",
        3,
      ).map((t) => t?.slice(0, 10)),
    ).toEqual(["2026-02-13", "2026-03-13", "2026-11-13"]);
  });

  test("MONTHLY every weekday of a month (no ordinal)", () => {
    expect(
      first("FREQ=MONTHLY;BYDAY=SA", "2026-02-01T12:00", "Etc/UTC", "2026-02-01T00:00:00Z", 5).map(
        (t) => t?.slice(0, 10),
      ),
    ).toEqual(["2026-02-07", "2026-02-14", "2026-02-21", "2026-02-28", "2026-03-07"]);
  });
});

describe("DTSTART, COUNT, UNTIL, EXDATE", () => {
  test("DTSTART is an occurrence only if the rule generates it (RFC 5545, as rrule.js)", () => {
    // DTSTART is a Thursday; the rule wants Mondays.
    expect(
      first(
        "FREQ=WEEKLY;BYDAY=MO;COUNT=2",
        "2026-01-01T09:00",
        "Etc/UTC",
        "2025-01-01T00:00:00Z",
        5,
      ),
    ).toEqual(["2026-01-05T09:00:00Z", "2026-01-12T09:00:00Z"]);
  });

  test("wall times before DTSTART on its own day are not occurrences", () => {
    expect(
      first("FREQ=DAILY;BYHOUR=8,12,18", "2026-01-01T12:00", "Etc/UTC", "2025-01-01T00:00:00Z", 3),
    ).toEqual(["2026-01-01T12:00:00Z", "2026-01-01T18:00:00Z", "2026-01-02T08:00:00Z"]);
  });

  test("COUNT: then no more occurrences, for good", () => {
    const r = rule("FREQ=DAILY;COUNT=3");
    const start = local("2026-01-01T09:00");
    expect(occurrencesBetween(r, start, "Etc/UTC", 0, Number.POSITIVE_INFINITY).map(iso)).toEqual([
      "2026-01-01T09:00:00Z",
      "2026-01-02T09:00:00Z",
      "2026-01-03T09:00:00Z",
    ]);
    expect(nextOccurrence(r, start, "Etc/UTC", ms("2026-01-03T09:00:00Z"))).toBeNull();
    expect(iso(previousOccurrence(r, start, "Etc/UTC", ms("2030-01-01T00:00:00Z")))).toBe(
      "2026-01-03T09:00:00Z",
    );
  });

  test("EXDATEs remove occurrences but still count toward COUNT (RFC 5545 3.8.5.1)", () => {
    expect(
      first("FREQ=DAILY;COUNT=4", "2026-01-01T09:00", "Etc/UTC", "2025-01-01T00:00:00Z", 10, [
        "2026-01-02T09:00",
        "2026-01-09T09:00",
      ]),
    ).toEqual(["2026-01-01T09:00:00Z", "2026-01-03T09:00:00Z", "2026-01-04T09:00:00Z"]);
  });

  test("EXDATE without COUNT, and an EXDATE that matches no occurrence", () => {
    expect(
      first(
        "FREQ=WEEKLY;BYDAY=FR;BYHOUR=17;BYMINUTE=0",
        "2026-01-02T17:00",
        "Europe/Paris",
        "2026-01-01T00:00:00Z",
        3,
        ["2026-01-09T17:00", "2026-01-10T17:00"],
      ),
    ).toEqual(["2026-01-02T16:00:00Z", "2026-01-16T16:00:00Z", "2026-01-23T16:00:00Z"]);
  });

  test("an EXDATE names a generated wall time, not the instant a gap time resolves to", () => {
    // 02:30 does not exist on 2026-03-08 in New York, and the rule never generates
    // 02:30 anyway: the 03:30 occurrence that 02:30 would resolve to stays.
    expect(
      first(
        "FREQ=DAILY;BYHOUR=3;BYMINUTE=30",
        "2026-03-07T03:30",
        "America/New_York",
        "2026-03-07T00:00:00Z",
        3,
        ["2026-03-08T02:30"],
      ),
    ).toEqual(["2026-03-07T08:30:00Z", "2026-03-08T07:30:00Z", "2026-03-09T07:30:00Z"]);
    // An EXDATE at the wall time the rule generates in the gap removes that occurrence.
    expect(
      first(
        "FREQ=DAILY;BYHOUR=2;BYMINUTE=30",
        "2026-03-07T02:30",
        "America/New_York",
        "2026-03-07T00:00:00Z",
        2,
        ["2026-03-08T02:30"],
      ),
    ).toEqual(["2026-03-07T07:30:00Z", "2026-03-09T06:30:00Z"]);
  });

  describe("Pacific/Kiritimati skipped 1994-12-31 (UTC-10 to UTC+14)", () => {
    // 1994-12-31T09:00 does not exist: it moves forward by the 24-hour gap onto the
    // instant of 1995-01-01T09:00, so the two wall times are one occurrence.
    const daily = ["FREQ=DAILY", "1994-12-29T09:00", "Pacific/Kiritimati", "1994-12-01T00:00:00Z"];
    const all = [
      "1994-12-29T19:00:00Z",
      "1994-12-30T19:00:00Z",
      "1994-12-31T19:00:00Z",
      "1995-01-01T19:00:00Z",
    ];
    const run = (exdates: string[], rrule = "FREQ=DAILY") =>
      first(rrule, daily[1]!, daily[2]!, daily[3]!, 4, exdates);

    test("the removed day's wall time and the next day's share one instant", () => {
      expect(run([])).toEqual(all);
    });

    test("an EXDATE on 1995-01-01 keeps the occurrence that merely shifts onto its instant", () => {
      expect(run(["1995-01-01T09:00"])).toEqual(all);
    });

    test("an EXDATE on the removed day keeps 1995-01-01's own occurrence", () => {
      expect(run(["1994-12-31T09:00"])).toEqual(all);
    });

    test("excluding both wall times removes the instant", () => {
      expect(run(["1994-12-31T09:00", "1995-01-01T09:00"])).toEqual([
        "1994-12-29T19:00:00Z",
        "1994-12-30T19:00:00Z",
        "1995-01-01T19:00:00Z",
        "1995-01-02T19:00:00Z",
      ]);
    });

    test("with COUNT, both wall times count and the shared instant stays", () => {
      expect(run(["1995-01-01T09:00"], "FREQ=DAILY;COUNT=4")).toEqual(all.slice(0, 3));
      expect(
        previousOccurrence(
          rule("FREQ=DAILY;COUNT=4"),
          local("1994-12-29T09:00"),
          "Pacific/Kiritimati",
          ms("1995-06-01T00:00:00Z"),
          { exdates: [local("1995-01-01T09:00")] },
        ),
      ).toBe(ms("1994-12-31T19:00:00Z"));
    });
  });

  test("UNTIL in UTC is inclusive", () => {
    expect(
      first(
        "FREQ=DAILY;UNTIL=20260103T140000Z",
        "2026-01-01T09:00",
        "America/New_York",
        "2025-01-01T00:00:00Z",
        10,
      ),
    ).toEqual(["2026-01-01T14:00:00Z", "2026-01-02T14:00:00Z", "2026-01-03T14:00:00Z"]);
    expect(
      first(
        "FREQ=DAILY;UNTIL=20260103T135959Z",
        "2026-01-01T09:00",
        "America/New_York",
        "2025-01-01T00:00:00Z",
        10,
      ),
    ).toHaveLength(2);
  });

  test("UNTIL as a date keeps that whole local day", () => {
    expect(
      first(
        "FREQ=DAILY;BYHOUR=9,23;UNTIL=20260102",
        "2026-01-01T09:00",
        "Asia/Tokyo",
        "2025-01-01T00:00:00Z",
        10,
      ),
    ).toEqual([
      "2026-01-01T00:00:00Z",
      "2026-01-01T14:00:00Z",
      "2026-01-02T00:00:00Z",
      "2026-01-02T14:00:00Z",
    ]);
  });

  test("previousOccurrence is at-or-before; nextOccurrence strictly after", () => {
    const r = rule("FREQ=DAILY");
    const start = local("2026-01-01T09:00");
    const at = ms("2026-01-05T09:00:00Z");
    expect(iso(previousOccurrence(r, start, "Etc/UTC", at))).toBe("2026-01-05T09:00:00Z");
    expect(iso(previousOccurrence(r, start, "Etc/UTC", at - 1))).toBe("2026-01-04T09:00:00Z");
    expect(iso(nextOccurrence(r, start, "Etc/UTC", at))).toBe("2026-01-06T09:00:00Z");
    expect(iso(nextOccurrence(r, start, "Etc/UTC", at - 1))).toBe("2026-01-05T09:00:00Z");
    expect(previousOccurrence(r, start, "Etc/UTC", ms("2026-01-01T08:59:59Z"))).toBeNull();
  });
});

describe("time zones", () => {
  test("spring-forward: a daily 02:30 moves to 03:30 on the gap day", () => {
    expect(
      first("FREQ=DAILY", "2026-03-07T02:30", "America/New_York", "2026-03-07T00:00:00Z", 3),
    ).toEqual([
      "2026-03-07T07:30:00Z",
      "2026-03-08T07:30:00Z", // 03:30 EDT
      "2026-03-09T06:30:00Z", // 02:30 EDT
    ]);
  });

  test("spring-forward: 02:30 and 03:30 land on one instant and count once", () => {
    expect(
      first(
        "FREQ=DAILY;BYHOUR=1,2,3;BYMINUTE=30",
        "2026-03-07T01:30",
        "America/New_York",
        "2026-03-08T00:00:00Z",
        3,
      ),
    ).toEqual(["2026-03-08T06:30:00Z", "2026-03-08T07:30:00Z", "2026-03-09T05:30:00Z"]);
  });

  test("fall-back: a daily 01:30 is the earlier instant; 01:00-02:00 happens once", () => {
    expect(
      first(
        "FREQ=DAILY;BYHOUR=0,1,2;BYMINUTE=30",
        "2026-10-31T00:30",
        "America/New_York",
        "2026-11-01T00:00:00Z",
        4,
      ),
    ).toEqual([
      "2026-11-01T04:30:00Z",
      "2026-11-01T05:30:00Z",
      "2026-11-01T07:30:00Z",
      "2026-11-02T05:30:00Z",
    ]);
  });

  test("Lord Howe's half-hour DST: 02:15 in the gap becomes 02:45 +11", () => {
    expect(
      first("FREQ=DAILY", "2026-10-01T02:15", "Australia/Lord_Howe", "2026-10-02T12:00:00Z", 3),
    ).toEqual([
      "2026-10-02T15:45:00Z", // 3 Oct 02:15 +10:30
      "2026-10-03T15:45:00Z", // 4 Oct 02:15 skipped -> 02:45 +11
      "2026-10-04T15:15:00Z", // 5 Oct 02:15 +11
    ]);
  });

  test("Chatham (+12:45/+13:45) and Kathmandu (+05:45)", () => {
    expect(
      first(
        "FREQ=WEEKLY;BYDAY=SU",
        "2026-09-20T03:00",
        "Pacific/Chatham",
        "2026-09-01T00:00:00Z",
        3,
      ),
    ).toEqual([
      "2026-09-19T14:15:00Z",
      "2026-09-26T14:15:00Z", // 27 Sep 03:00 is in the gap -> 04:00 +13:45
      "2026-10-03T13:15:00Z",
    ]);
    expect(
      first("FREQ=DAILY", "2026-01-01T00:00", "Asia/Kathmandu", "2026-01-01T00:00:00Z", 1),
    ).toEqual(["2026-01-01T18:15:00Z"]);
  });

  test("a wall time after a half-hour gap comes before one moved out of it (Lord Howe)", () => {
    // 4 Oct 2026: 02:00-02:30 is skipped. 02:15 moves to 02:45 +11, after 02:30 +11.
    expect(
      first(
        "FREQ=DAILY;BYHOUR=2;BYMINUTE=15,30",
        "2026-10-01T02:15",
        "Australia/Lord_Howe",
        "2026-10-03T12:00:00Z",
        3,
      ),
    ).toEqual(["2026-10-03T15:30:00Z", "2026-10-03T15:45:00Z", "2026-10-04T15:15:00Z"]);
  });

  test("a two-hour gap (Antarctica/Troll): later wall times land before earlier ones", () => {
    // 29 Mar 2026: 01:00-03:00 is skipped. 02:00 -> 04:00 +02, 02:30 -> 04:30, 03:00 is real.
    expect(
      first(
        "FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,30",
        "2026-03-27T02:00",
        "Antarctica/Troll",
        "2026-03-28T12:00:00Z",
        4,
      ),
    ).toEqual([
      "2026-03-29T01:00:00Z",
      "2026-03-29T01:30:00Z",
      "2026-03-29T02:00:00Z",
      "2026-03-29T02:30:00Z",
    ]);
    const r = rule("FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,30");
    const start = local("2026-03-27T02:00");
    // Backward: the last occurrence at or before 02:15Z is 04:00 +02 (from 02:00), not 03:30 +02.
    expect(iso(previousOccurrence(r, start, "Antarctica/Troll", ms("2026-03-29T02:15:00Z")))).toBe(
      "2026-03-29T02:00:00Z",
    );
  });

  test("a midnight gap (Santiago): 00:30 becomes 01:30", () => {
    expect(
      first("FREQ=DAILY", "2026-09-01T00:30", "America/Santiago", "2026-09-05T00:00:00Z", 2),
    ).toEqual(["2026-09-05T04:30:00Z", "2026-09-06T04:30:00Z"]);
  });

  test("Pacific/Apia skipped 30 Dec 2011: that day's 09:00 is 31 Dec's 09:00, counted once", () => {
    expect(
      first("FREQ=DAILY", "2011-12-25T09:00", "Pacific/Apia", "2011-12-28T00:00:00Z", 3),
    ).toEqual([
      "2011-12-28T19:00:00Z", // 28 Dec 09:00 -10
      "2011-12-29T19:00:00Z", // 29 Dec 09:00 -10
      "2011-12-30T19:00:00Z", // 31 Dec 09:00 +14
    ]);
    expect(
      first(
        "FREQ=DAILY;BYHOUR=9,23",
        "2011-12-25T09:00",
        "Pacific/Apia",
        "2011-12-29T12:00:00Z",
        4,
      ),
    ).toEqual([
      "2011-12-29T19:00:00Z", // 29 Dec 09:00 -10
      "2011-12-30T09:00:00Z", // 29 Dec 23:00 -10
      "2011-12-30T19:00:00Z", // 31 Dec 09:00 +14 (and 30 Dec 09:00, moved forward)
      "2011-12-31T09:00:00Z", // 31 Dec 23:00 +14 (and 30 Dec 23:00)
    ]);
  });

  test("Pacific/Apia: a rule for the 30th of every month has none in Dec 2011 of its own", () => {
    expect(
      first(
        "FREQ=MONTHLY;BYMONTHDAY=30",
        "2011-10-30T12:00",
        "Pacific/Apia",
        "2011-11-01T00:00:00Z",
        2,
      ),
    ).toEqual([
      "2011-11-30T22:00:00Z",
      "2011-12-30T22:00:00Z", // 30 Dec 12:00 did not exist: 31 Dec 12:00 +14
    ]);
  });

  test("Pacific/Kiritimati skipped 31 Dec 1994", () => {
    expect(
      first("FREQ=DAILY", "1994-12-29T12:00", "Pacific/Kiritimati", "1994-12-29T00:00:00Z", 3),
    ).toEqual([
      "1994-12-29T22:00:00Z",
      "1994-12-30T22:00:00Z", // 30 Dec 12:00 -10
      "1994-12-31T22:00:00Z", // 1 Jan 12:00 +14 (31 Dec 12:00 was skipped and moves onto it)
    ]);
  });

  test("answers do not depend on the host zone or on today's date", () => {
    // The code never reads either; this pins the answer for a far-past and a far-future date.
    const r = rule("FREQ=DAILY;BYHOUR=1;BYMINUTE=30");
    expect(
      iso(
        nextOccurrence(
          r,
          local("1900-01-01T01:30"),
          "America/New_York",
          ms("1950-09-24T00:00:00Z"),
        ),
      ),
    ).toBe("1950-09-24T05:30:00Z"); // fall-back day: the earlier 01:30 (EDT)
    expect(
      iso(
        nextOccurrence(
          r,
          local("1900-01-01T01:30"),
          "America/New_York",
          ms("2090-11-05T00:00:00Z"),
        ),
      ),
    ).toBe("2090-11-05T05:30:00Z");
  });
});

describe("termination and performance", () => {
  test("a rule that never matches returns null instead of looping", () => {
    const start = local("2026-01-05T09:00"); // a Monday
    expect(nextOccurrence(rule("FREQ=DAILY;INTERVAL=7;BYDAY=TU"), start, "Etc/UTC", 0)).toBeNull();
    expect(
      previousOccurrence(
        rule("FREQ=DAILY;INTERVAL=7;BYDAY=TU"),
        start,
        "Etc/UTC",
        ms("2090-01-01T00:00:00Z"),
      ),
    ).toBeNull();
    expect(
      nextOccurrence(
        rule("FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=30"),
        local("2026-02-01T09:00"),
        "Etc/UTC",
        0,
      ),
    ).toBeNull();
    expect(
      nextOccurrence(
        rule("FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=30;COUNT=5"),
        local("2026-02-01T09:00"),
        "Etc/UTC",
        0,
      ),
    ).toBeNull();
  });

  test("nothing is generated after 9999-12-31", () => {
    const r = rule("FREQ=DAILY");
    const start = local("9999-12-30T12:00");
    expect(iso(nextOccurrence(r, start, "Etc/UTC", 0))).toBe("9999-12-30T12:00:00Z");
    expect(iso(nextOccurrence(r, start, "Etc/UTC", ms("9999-12-30T12:00:00Z")))).toBe(
      "9999-12-31T12:00:00Z",
    );
    expect(nextOccurrence(r, start, "Etc/UTC", ms("9999-12-31T12:00:00Z"))).toBeNull();
    expect(nextOccurrence(r, start, "Etc/UTC", Number.POSITIVE_INFINITY)).toBeNull();
    expect(iso(previousOccurrence(r, start, "Etc/UTC", Number.POSITIVE_INFINITY))).toBe(
      "9999-12-31T12:00:00Z",
    );
  });

  test("far from DTSTART without COUNT: jumps, does not walk", () => {
    const schedule = createSchedule(
      rule("FREQ=DAILY;BYHOUR=9"),
      local("0001-01-01T09:00"),
      "Europe/Paris",
    );
    const started = performance.now();
    for (let i = 0; i < 1000; i++) schedule.next(ms("2026-06-01T00:00:00Z") + i * 3_600_000);
    // Walking 740,000 days per call would take minutes.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(iso(schedule.next(ms("2026-06-01T00:00:00Z")))).toBe("2026-06-01T07:00:00Z");
  });

  test("COUNT=10000 is built once and bisected", () => {
    const schedule = createSchedule(
      rule("FREQ=DAILY;BYHOUR=9,21;COUNT=10000"),
      local("2000-01-01T09:00"),
      "Europe/Paris",
    );
    expect(iso(schedule.previous(Number.POSITIVE_INFINITY))).toBe("2013-09-08T19:00:00Z");
    expect(iso(schedule.next(ms("2010-01-01T00:00:00Z")))).toBe("2010-01-01T08:00:00Z");
  });

  test("an unknown zone and NaN are refused", () => {
    expect(() =>
      createSchedule(rule("FREQ=DAILY"), local("2026-01-01T00:00"), "Nowhere/City"),
    ).toThrow(RangeError);
    expect(() =>
      nextOccurrence(rule("FREQ=DAILY"), local("2026-01-01T00:00"), "Etc/UTC", Number.NaN),
    ).toThrow(RangeError);
  });
});

describe("windows, order and merged times", () => {
  const daily = rule("FREQ=DAILY");
  const start = local("2026-01-01T09:00");
  const at = (day: number) => Date.UTC(2026, 0, day, 9);

  test("occurrencesBetween is (from, to]: an occurrence at from is out, one at to is in", () => {
    expect(occurrencesBetween(daily, start, "Etc/UTC", at(2), at(4))).toEqual([at(3), at(4)]);
    expect(occurrencesBetween(daily, start, "Etc/UTC", at(2) - 1, at(4) - 1)).toEqual([
      at(2),
      at(3),
    ]);
    expect(occurrencesBetween(daily, start, "Etc/UTC", at(4), at(4))).toEqual([]);
  });

  test("occurrencesBetween stops at limit, 1,000 by default", () => {
    const far = Date.UTC(2040, 0, 1);
    expect(occurrencesBetween(daily, start, "Etc/UTC", 0, far)).toHaveLength(1000);
    expect(occurrencesBetween(daily, start, "Etc/UTC", 0, far, { limit: 3 })).toEqual([
      at(1),
      at(2),
      at(3),
    ]);
  });

  test("NaN is not an instant", () => {
    for (const r of [daily, rule("FREQ=DAILY;COUNT=2")]) {
      const schedule = createSchedule(r, start, "Etc/UTC");
      expect(() => schedule.next(Number.NaN)).toThrow(
        "An instant must be a number of milliseconds, not NaN",
      );
      expect(() => schedule.previous(Number.NaN)).toThrow(RangeError);
    }
  });

  test("next is strictly after, previous is at or before", () => {
    expect(nextOccurrence(daily, start, "Etc/UTC", at(2))).toBe(at(3));
    expect(nextOccurrence(daily, start, "Etc/UTC", at(2) - 1)).toBe(at(2));
    expect(previousOccurrence(daily, start, "Etc/UTC", at(2))).toBe(at(2));
    expect(previousOccurrence(daily, start, "Etc/UTC", at(2) - 1)).toBe(at(1));
    expect(previousOccurrence(daily, start, "Etc/UTC", at(1) - 1)).toBeNull();
  });

  test("one rule object asked about other zones, starts and exdates gets their own answers", () => {
    const from = Date.UTC(2025, 11, 31);
    expect(nextOccurrence(daily, start, "Etc/UTC", from)).toBe(at(1));
    expect(nextOccurrence(daily, start, "Asia/Tokyo", from)).toBe(Date.UTC(2026, 0, 1, 0));
    expect(nextOccurrence(daily, local("2026-01-05T09:00"), "Etc/UTC", from)).toBe(at(5));
    expect(
      nextOccurrence(daily, start, "Etc/UTC", from, { exdates: [local("2026-01-01T09:00")] }),
    ).toBe(at(2));
    expect(nextOccurrence(daily, start, "Etc/UTC", from)).toBe(at(1));
  });

  // Lord Howe Island springs forward from 02:00 to 02:30 (+10:30 to +11:00) on 2026-10-04:
  // 02:10 moves to 02:40, after 02:30, which exists. Wall order and instant order differ.
  const lordHowe = "Australia/Lord_Howe";
  const t0230 = Date.parse("2026-10-03T15:30:00Z");
  const t0240 = Date.parse("2026-10-03T15:40:00Z");

  test.each([
    ["FREQ=DAILY;BYHOUR=2;BYMINUTE=10,30", "without COUNT"],
    ["FREQ=DAILY;BYHOUR=2;BYMINUTE=10,30;COUNT=4", "with COUNT"],
  ])("a gap can reorder wall times: occurrences are in instant order (%s)", (text, _) => {
    const r = rule(text);
    const dt = local("2026-10-04T02:10");
    const from = Date.parse("2026-10-01T00:00:00Z");
    expect(occurrencesBetween(r, dt, lordHowe, from, t0240 + 86_400_000, { limit: 3 })).toEqual([
      t0230,
      t0240,
      Date.parse("2026-10-04T15:10:00Z"),
    ]);
    expect(nextOccurrence(r, dt, lordHowe, from)).toBe(t0230);
    expect(previousOccurrence(r, dt, lordHowe, t0240 - 1)).toBe(t0230);
    expect(previousOccurrence(r, dt, lordHowe, t0230 - 1)).toBeNull();
  });

  test.each([
    ["FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0", "without COUNT"],
    ["FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0;COUNT=4", "with COUNT"],
  ])("two wall times on one instant are one occurrence (%s)", (text, _) => {
    // New York, 2026-03-08: 02:00 does not exist and moves to 03:00 EDT.
    const r = rule(text);
    const dt = local("2026-03-08T02:00");
    const from = Date.parse("2026-03-01T00:00:00Z");
    expect(
      occurrencesBetween(r, dt, "America/New_York", from, Date.parse("2026-03-10T00:00:00Z")),
    ).toEqual([
      Date.parse("2026-03-08T07:00:00Z"),
      Date.parse("2026-03-09T06:00:00Z"),
      Date.parse("2026-03-09T07:00:00Z"),
    ]);
  });
});
