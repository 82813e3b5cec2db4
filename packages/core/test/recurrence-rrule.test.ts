import { describe, expect, test, vi } from "vitest";
import { parseRRule, type RRule } from "../src/recurrence/rrule";

function ok(text: string): RRule {
  const result = parseRRule(text);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.message}`);
  return result.rule;
}

describe("parseRRule: accepted rules", () => {
  test("defaults: INTERVAL 1, WKST Monday, empty lists", () => {
    expect(ok("FREQ=DAILY")).toEqual({
      freq: "DAILY",
      interval: 1,
      byDay: [],
      byMonthDay: [],
      byHour: [],
      byMinute: [],
      bySecond: [],
      count: null,
      until: null,
      wkst: 1,
    });
  });

  test.each([
    ["RRULE:FREQ=WEEKLY;BYDAY=MO", "leading RRULE:"],
    ["rrule:freq=weekly;byday=mo", "lower case"],
    [" FREQ=WEEKLY ; BYDAY=Mo ", "spaces around parts"],
  ])("%s (%s)", (text) => {
    expect(ok(text)).toMatchObject({ freq: "WEEKLY", byDay: [{ weekday: 1, nth: null }] });
  });

  test("every supported part", () => {
    const rule = ok(
      "FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR,1MO,TU;BYMONTHDAY=-1,15,+1;BYHOUR=17,9,9;BYMINUTE=30,0;BYSECOND=59;COUNT=10;WKST=SU",
    );
    expect(rule).toEqual({
      freq: "MONTHLY",
      interval: 2,
      byDay: [
        { weekday: 1, nth: 1 },
        { weekday: 2, nth: null },
        { weekday: 5, nth: -1 },
      ],
      byMonthDay: [-1, 1, 15],
      byHour: [9, 17],
      byMinute: [0, 30],
      bySecond: [59],
      count: 10,
      until: null,
      wkst: 7,
    });
  });

  test.each([
    ["UNTIL=20261231T235959Z", { kind: "instant", at: Date.UTC(2026, 11, 31, 23, 59, 59) }],
    ["UNTIL=20240229", { kind: "date", year: 2024, month: 2, day: 29 }],
    // Not 1950: Date.UTC would map the year 50 to 1950; ISO parsing does not.
    ["UNTIL=00500101T000000Z", { kind: "instant", at: Date.parse("0050-01-01T00:00:00Z") }],
  ])("%s", (part, until) => {
    expect(ok(`FREQ=DAILY;${part}`).until).toEqual(until);
  });

  test("bounds are inclusive", () => {
    expect(ok("FREQ=DAILY;INTERVAL=999;COUNT=10000").interval).toBe(999);
    expect(ok("FREQ=MONTHLY;BYMONTHDAY=-31,31;BYDAY=5SU,-5MO").byMonthDay).toEqual([-31, 31]);
    expect(ok("FREQ=DAILY;BYHOUR=0,23;BYMINUTE=0,59;BYSECOND=0,59").bySecond).toEqual([0, 59]);
  });
});

describe("parseRRule: refused rules name the part and the rule", () => {
  test.each([
    ["", "the rule is empty"],
    ["BYDAY=MO", "FREQ is required"],
    [
      "FREQ=YEARLY",
      'part "FREQ=YEARLY": FREQ must be DAILY, WEEKLY or MONTHLY (for yearly, use FREQ=MONTHLY;INTERVAL=12)',
    ],
    ["FREQ=HOURLY", 'part "FREQ=HOURLY"'],
    ["FREQ=DAILY;", "part 2 is empty"],
    ["FREQ=DAILY;;COUNT=2", "part 2 is empty"],
    ["FREQ=DAILY;COUNT", 'part "COUNT" is not KEY=VALUE'],
    ["FREQ=DAILY;COUNT=", 'part "COUNT=" has an empty value'],
    ["FREQ=DAILY;=3", 'part "=3" has no name'],
    ["FREQ=DAILY;freq=weekly", "part FREQ appears more than once"],
    ["FREQ=DAILY;FOO=1", 'part "FOO=1": unknown rule part FOO'],
    ["FREQ=DAILY;BYSETPOS=1", "BYSETPOS is not supported"],
    ["FREQ=DAILY;BYMONTH=1", "BYMONTH is not supported"],
    ["FREQ=DAILY;INTERVAL=0", 'part "INTERVAL=0": INTERVAL must be an integer from 1 to 999'],
    ["FREQ=DAILY;INTERVAL=1000", "INTERVAL must be an integer from 1 to 999"],
    ["FREQ=DAILY;INTERVAL=1,2", "INTERVAL takes one value"],
    ["FREQ=DAILY;INTERVAL=1.5", '"1.5" is not an integer'],
    ["FREQ=DAILY;COUNT=0", "COUNT must be an integer from 1 to 10000"],
    ["FREQ=DAILY;COUNT=10001", "COUNT must be an integer from 1 to 10000"],
    ["FREQ=DAILY;BYHOUR=24", 'part "BYHOUR=24": hours are integers from 0 to 23'],
    ["FREQ=DAILY;BYHOUR=-1", "hours are integers from 0 to 23"],
    ["FREQ=DAILY;BYHOUR=9,", '"" is not an integer'],
    ["FREQ=DAILY;BYMINUTE=60", "minutes are integers from 0 to 59"],
    ["FREQ=DAILY;BYSECOND=60", "seconds are integers from 0 to 59"],
    ["FREQ=MONTHLY;BYMONTHDAY=0", "days of the month are 1..31 or -31..-1"],
    ["FREQ=MONTHLY;BYMONTHDAY=32", "days of the month are 1..31 or -31..-1"],
    ["FREQ=MONTHLY;BYMONTHDAY=-32", "days of the month are 1..31 or -31..-1"],
    ["FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY cannot be used with FREQ=WEEKLY"],
    ["FREQ=WEEKLY;BYDAY=XX", '"XX" is not a weekday'],
    ["FREQ=WEEKLY;BYDAY=1MO", 'ordinals such as "1MO" are only allowed with FREQ=MONTHLY'],
    ["FREQ=DAILY;BYDAY=-1FR", 'ordinals such as "-1FR" are only allowed with FREQ=MONTHLY'],
    ["FREQ=MONTHLY;BYDAY=0MO", '"0MO" never occurs'],
    ["FREQ=MONTHLY;BYDAY=6MO", '"6MO" never occurs'],
    ["FREQ=MONTHLY;BYDAY=-6MO", '"-6MO" never occurs'],
    ["FREQ=DAILY;WKST=XX", "WKST must be one of MO, TU, WE, TH, FR, SA, SU"],
    ["FREQ=DAILY;UNTIL=2026", "UNTIL must be a UTC date-time"],
    ["FREQ=DAILY;UNTIL=20260101T000000", "a local UNTIL date-time is ambiguous"],
    ["FREQ=DAILY;UNTIL=20260230", "20260230 is not a calendar date"],
    ["FREQ=DAILY;UNTIL=20260101T246000Z", "246000 is not a time of day"],
    ["FREQ=DAILY;COUNT=2;UNTIL=20260101", "COUNT and UNTIL cannot be used together"],
    [`FREQ=DAILY;BYHOUR=${"1,".repeat(600)}1`, "longer than 1000 characters"],
  ])("%s", (text, message) => {
    const result = parseRRule(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain(message);
    // The rule itself is quoted (shortened when long), so users see what was refused.
    expect(result.message).toMatch(/^Invalid RRULE "/);
    expect(result.message).toContain(text.slice(0, 20));
  });
});

describe("parseRRule: UNTIL is a real calendar date and time of day", () => {
  test.each([
    ["20260101", true],
    ["20261231", true],
    ["20260131", true],
    ["20240229", true],
    ["20260228T235959Z", true],
    ["20260101T000000Z", true],
    ["20260001", false],
    ["20261301", false],
    ["20260100", false],
    ["20260132", false],
    ["20260229", false],
    ["20260231", false],
    ["20230229T000000Z", false],
    ["20260101T240000Z", false],
    ["20260101T246000Z", false],
    ["20260101T236000Z", false],
    ["20260101T235960Z", false],
    ["x20260101", false],
    ["20260101x", false],
    ["20260101T000000Zx", false],
    ["20260101T0000Z", false],
  ])("UNTIL=%s", (value, accepted) => {
    const result = parseRRule(`FREQ=DAILY;UNTIL=${value}`);
    expect(result.ok, value).toBe(accepted);
    if (!result.ok && /^\d{8}(T\d{6}Z)?$/.test(value)) {
      // The message names what is wrong: the date, or the time of day.
      const what =
        /^\d{8}$/.test(value) || !isCalendar(value)
          ? "is not a calendar date"
          : "is not a time of day";
      expect(result.message).toContain(what);
    }
  });

  function isCalendar(value: string): boolean {
    const [y, m, d] = [value.slice(0, 4), value.slice(4, 6), value.slice(6, 8)].map(Number) as [
      number,
      number,
      number,
    ];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }

  test("a UTC UNTIL is the instant it names, seconds included", () => {
    expect(ok("FREQ=DAILY;UNTIL=20261231T235958Z").until).toEqual({
      kind: "instant",
      at: Date.UTC(2026, 11, 31, 23, 59, 58),
    });
    expect(ok("FREQ=DAILY;UNTIL=20260102T030405Z").until).toEqual({
      kind: "instant",
      at: Date.UTC(2026, 0, 2, 3, 4, 5),
    });
  });
});

describe("parseRRule: length, anchors, order", () => {
  test("a rule of exactly 1000 characters is read; 1001 is refused", () => {
    const padded = (n: number) => `FREQ=DAILY${" ".repeat(n - 10)}`;
    expect(padded(1000)).toHaveLength(1000);
    expect(parseRRule(padded(1000)).ok).toBe(true);
    const refused = parseRRule(padded(1001));
    expect(refused).toMatchObject({ ok: false });
    expect(!refused.ok && refused.message).toContain("the rule is longer than 1000 characters.");
  });

  test("messages quote rules up to 120 characters whole, longer ones cut to 117 and ...", () => {
    const of = (text: string) => {
      const result = parseRRule(text);
      if (result.ok) throw new Error("expected a refusal");
      return result.message;
    };
    const at120 = `FREQ=DAILY;BYHOUR=${"1,".repeat(50)}99`;
    expect(at120).toHaveLength(120);
    expect(of(at120)).toContain(`"${at120}"`);
    const at121 = `${at120}9`;
    expect(of(at121)).toContain(`"${at121.slice(0, 117)}..."`);
    expect(of("   ")).toBe('Invalid RRULE "   ": the rule is empty.');
    // Untyped JSON can hand over a non-string: refused, not thrown.
    expect(parseRRule(42 as unknown as string)).toMatchObject({ ok: false });
  });

  test("RRULE: is a prefix only, and every value pattern is anchored", () => {
    expect(parseRRule("FREQ=DAILY;RRULE:COUNT=2")).toMatchObject({
      ok: false,
      message: expect.stringContaining("unknown rule part RRULE:COUNT"),
    });
    for (const [text, message] of [
      ["FREQ=DAILY;BYHOUR=x1", '"X1" is not an integer'],
      ["FREQ=DAILY;BYHOUR=1x", '"1X" is not an integer'],
      ["FREQ=DAILY;BYMINUTE=0000059", '"0000059" is not an integer'],
      ["FREQ=WEEKLY;BYDAY=MOX", '"MOX" is not a weekday'],
      ["FREQ=WEEKLY;BYDAY=XMO", '"XMO" is not a weekday'],
      ["FREQ=MONTHLY;BYDAY=100MO", '"100MO" is not a weekday'],
      ["FREQ=DAILY;WKST=MOX", "WKST must be one of"],
    ] as const) {
      const result = parseRRule(text);
      expect(result.ok, text).toBe(false);
      expect(!result.ok && result.message, text).toContain(message);
    }
    expect(ok("FREQ=DAILY;COUNT=+5;BYHOUR=+9").count).toBe(5);
    expect(ok("FREQ=DAILY;BYMINUTE=000059").byMinute).toEqual([59]); // six digits at most
  });

  test("lists are sorted and deduplicated; BYDAY by weekday, then ordinal", () => {
    expect(ok("FREQ=DAILY;BYHOUR=9,1,9,23").byHour).toEqual([1, 9, 23]);
    expect(ok("FREQ=MONTHLY;BYDAY=1TU,2MO,-1MO,MO,+2MO,SU").byDay).toEqual([
      { weekday: 1, nth: -1 },
      { weekday: 1, nth: null },
      { weekday: 1, nth: 2 },
      { weekday: 2, nth: 1 },
      { weekday: 7, nth: null },
    ]);
    expect(ok("FREQ=WEEKLY;BYDAY=SU,MO,SA;WKST=SU")).toMatchObject({
      byDay: [
        { weekday: 1, nth: null },
        { weekday: 6, nth: null },
        { weekday: 7, nth: null },
      ],
      wkst: 7,
    });
  });

  test("a duplicate BYDAY entry is one entry whatever its spelling; distinct ones all stay", () => {
    expect(ok("FREQ=WEEKLY;BYDAY=MO,MO,TU").byDay).toEqual([
      { weekday: 1, nth: null },
      { weekday: 2, nth: null },
    ]);
    expect(ok("FREQ=MONTHLY;BYDAY=1MO,+1MO,1TU,2MO").byDay).toEqual([
      { weekday: 1, nth: 1 },
      { weekday: 1, nth: 2 },
      { weekday: 2, nth: 1 },
    ]);
  });
});

describe("parseRRule: a bug is not the user's fault", () => {
  test("an error other than a refusal propagates instead of being reported as a bad rule", () => {
    // Nothing in the parser throws anything but its own refusals; a failing built-in
    // stands in for a future bug, which must surface rather than blame the rule.
    const trim = vi.spyOn(String.prototype, "trim").mockImplementation(() => {
      throw new TypeError("a bug");
    });
    try {
      expect(() => parseRRule("FREQ=DAILY")).toThrow(TypeError);
    } finally {
      trim.mockRestore();
    }
    expect(parseRRule("FREQ=DAILY").ok).toBe(true);
  });
});
