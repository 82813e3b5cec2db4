import { describe, expect, test } from "vitest";
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
