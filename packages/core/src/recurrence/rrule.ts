// Parser for the RFC 5545 RRULE subset that recurring timers accept. It only
// validates and normalises; expanding a rule into dates lives in expand.ts.
//
// Supported parts: FREQ (DAILY, WEEKLY, MONTHLY), INTERVAL, BYDAY (with ordinals
// for MONTHLY), BYMONTHDAY, BYHOUR, BYMINUTE, BYSECOND, COUNT, UNTIL, WKST.
// Messages are shown to API users, so each names the offending part and the rule.

import { daysFromCivil, daysInMonth } from "../time/_calendar";

/** How often a rule repeats (the RFC 5545 FREQ values this subset supports). */
export type RRuleFrequency = "DAILY" | "WEEKLY" | "MONTHLY";

/** ISO weekday number: 1 = Monday ... 7 = Sunday. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** One BYDAY entry: a weekday, and for MONTHLY rules optionally its nth (1..5) or nth-last (-1..-5) occurrence in the month. */
export interface RRuleWeekday {
  weekday: Weekday;
  /** `null` for every such weekday of the period; `2` for the second, `-1` for the last. */
  nth: number | null;
}

/** The end of a rule: an instant (UTC form `...T...Z`, inclusive) or a whole local date (inclusive). */
export type RRuleUntil =
  | { kind: "instant"; at: number }
  | { kind: "date"; year: number; month: number; day: number };

/**
 * A parsed, validated RRULE. Lists are sorted and deduplicated; an empty list
 * means the part was absent (expansion then takes the value from DTSTART).
 */
export interface RRule {
  freq: RRuleFrequency;
  /** 1..999 periods between repetitions. */
  interval: number;
  byDay: readonly RRuleWeekday[];
  /** 1..31 or -31..-1 (counted from the month's end). */
  byMonthDay: readonly number[];
  byHour: readonly number[];
  byMinute: readonly number[];
  bySecond: readonly number[];
  /** Total occurrences counted from DTSTART, or `null`. Never set together with `until`. */
  count: number | null;
  until: RRuleUntil | null;
  /** First day of the week for WEEKLY rules with INTERVAL > 1 (RFC 5545 default: Monday). */
  wkst: Weekday;
}

/** Result of {@link parseRRule}: the rule, or a message fit to show an API user. */
export type ParseRRuleResult = { ok: true; rule: RRule } | { ok: false; message: string };

const WEEKDAYS: Record<string, Weekday> = { MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6, SU: 7 };

// Parts of RFC 5545 that exist but this subset does not implement: a clearer
// message than "unknown part" for users who copy rules from calendar apps.
const UNSUPPORTED = new Set(["BYSETPOS", "BYMONTH", "BYYEARDAY", "BYWEEKNO"]);

// Rules are short; a cap keeps hostile input from costing parse time.
const MAX_RULE_LENGTH = 1000;

class RuleError extends Error {}

/**
 * Parses an RRULE such as `FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9` (an optional
 * leading `RRULE:` is allowed; keys and values are case-insensitive).
 * @example parseRRule("FREQ=MONTHLY;BYDAY=-1FR") // { ok: true, rule: { freq: "MONTHLY", byDay: [{ weekday: 5, nth: -1 }], ... } }
 */
export function parseRRule(text: string): ParseRRuleResult {
  try {
    return { ok: true, rule: parseOrThrow(text) };
  } catch (error) {
    // Only a refusal is the rule's fault; anything else is a bug and surfaces as one.
    if (error instanceof RuleError) return { ok: false, message: error.message };
    throw error;
  }
}

function parseOrThrow(text: string): RRule {
  // Not a string (JavaScript callers, parsed JSON): the empty-rule answer, not a TypeError.
  const shown =
    typeof text !== "string" ? "" : text.length > 120 ? `${text.slice(0, 117)}...` : text;
  const fail: (why: string) => never = (why) => {
    throw new RuleError(`Invalid RRULE "${shown}": ${why}`);
  };
  if (typeof text !== "string" || text.trim() === "") fail("the rule is empty.");
  if (text.length > MAX_RULE_LENGTH) fail(`the rule is longer than ${MAX_RULE_LENGTH} characters.`);

  let body = text.trim();
  if (/^RRULE:/i.test(body)) body = body.slice(6);

  const parts = new Map<string, { raw: string; value: string }>();
  body.split(";").forEach((raw, index) => {
    if (raw.trim() === "")
      fail(`part ${index + 1} is empty (check for a doubled or trailing ";").`);
    const eq = raw.indexOf("=");
    if (eq < 0) fail(`part "${raw}" is not KEY=VALUE.`);
    const key = raw.slice(0, eq).trim().toUpperCase();
    const value = raw
      .slice(eq + 1)
      .trim()
      .toUpperCase();
    if (key === "") fail(`part "${raw}" has no name before "=".`);
    if (value === "") fail(`part "${raw}" has an empty value.`);
    if (parts.has(key)) fail(`part ${key} appears more than once.`);
    if (UNSUPPORTED.has(key)) fail(`part "${raw}": ${key} is not supported.`);
    if (!KNOWN_KEYS.has(key)) fail(`part "${raw}": unknown rule part ${key}.`);
    parts.set(key, { raw, value });
  });

  const freqPart = parts.get("FREQ");
  if (!freqPart) fail("FREQ is required (DAILY, WEEKLY or MONTHLY).");
  const freqValue = freqPart.value;
  if (freqValue !== "DAILY" && freqValue !== "WEEKLY" && freqValue !== "MONTHLY") {
    const hint = freqValue === "YEARLY" ? " (for yearly, use FREQ=MONTHLY;INTERVAL=12)" : "";
    fail(`part "${freqPart.raw}": FREQ must be DAILY, WEEKLY or MONTHLY${hint}.`);
  }
  const freq = freqValue as RRuleFrequency;

  /** Integers in [min, max], optionally excluding 0, of a comma list. */
  const intList = (key: string, min: number, max: number, what: string): number[] => {
    const part = parts.get(key);
    if (!part) return [];
    const values = part.value.split(",").map((item) => {
      if (!/^[+-]?\d{1,6}$/.test(item)) fail(`part "${part.raw}": "${item}" is not an integer.`);
      const n = Number(item);
      if (n < min || n > max || (min < 0 && n === 0)) fail(`part "${part.raw}": ${what}.`);
      return n;
    });
    return sortedUnique(values);
  };
  const single = (key: string, min: number, max: number): number | null => {
    const part = parts.get(key);
    if (!part) return null;
    if (part.value.includes(",")) fail(`part "${part.raw}": ${key} takes one value.`);
    return intList(key, min, max, `${key} must be an integer from ${min} to ${max}`)[0] ?? null;
  };

  const interval = single("INTERVAL", 1, 999) ?? 1;
  const count = single("COUNT", 1, 10_000);
  const byMonthDay = intList("BYMONTHDAY", -31, 31, "days of the month are 1..31 or -31..-1");
  const byHour = intList("BYHOUR", 0, 23, "hours are integers from 0 to 23");
  const byMinute = intList("BYMINUTE", 0, 59, "minutes are integers from 0 to 59");
  // :60 (a leap second) is refused: epoch milliseconds cannot represent it.
  const bySecond = intList("BYSECOND", 0, 59, "seconds are integers from 0 to 59");

  const byDay: RRuleWeekday[] = [];
  const byDayPart = parts.get("BYDAY");
  if (byDayPart) {
    for (const item of byDayPart.value.split(",")) {
      const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
      if (!m)
        fail(`part "${byDayPart.raw}": "${item}" is not a weekday (MO..SU, e.g. 1MO or -1FR).`);
      const nth = m[1] === undefined ? null : Number(m[1]);
      // Only an ordinal has limits (one test for both, so no check stands idle on null).
      if (nth !== null) {
        if (freq !== "MONTHLY") {
          fail(
            `part "${byDayPart.raw}": ordinals such as "${item}" are only allowed with FREQ=MONTHLY.`,
          );
        }
        if (nth === 0 || nth < -5 || nth > 5) {
          fail(
            `part "${byDayPart.raw}": a month has 1 to 5 of each weekday, so "${item}" never occurs.`,
          );
        }
      }
      // Deduplicated by value, so "1MO" and "+1MO" are one entry (a list has at most a few
      // dozen entries: the rule is at most 1,000 characters).
      const weekday = WEEKDAYS[m[2]!]!;
      if (!byDay.some((d) => d.weekday === weekday && d.nth === nth)) byDay.push({ weekday, nth });
    }
    byDay.sort((a, b) => a.weekday - b.weekday || (a.nth ?? 0) - (b.nth ?? 0));
  }

  // RFC 5545 3.3.10: "The BYMONTHDAY rule part MUST NOT be specified when the
  // FREQ rule part is set to WEEKLY."
  if (freq === "WEEKLY" && byMonthDay.length > 0) {
    fail(`part "${parts.get("BYMONTHDAY")!.raw}": BYMONTHDAY cannot be used with FREQ=WEEKLY.`);
  }

  let wkst: Weekday = 1;
  const wkstPart = parts.get("WKST");
  if (wkstPart) {
    const day = WEEKDAYS[wkstPart.value];
    if (day === undefined)
      fail(`part "${wkstPart.raw}": WKST must be one of MO, TU, WE, TH, FR, SA, SU.`);
    wkst = day;
  }

  let until: RRuleUntil | null = null;
  const untilPart = parts.get("UNTIL");
  if (untilPart) until = parseUntil(untilPart.raw, untilPart.value, fail);
  if (until && count !== null) fail("COUNT and UNTIL cannot be used together.");

  return { freq, interval, byDay, byMonthDay, byHour, byMinute, bySecond, count, until, wkst };
}

const KNOWN_KEYS = new Set([
  "FREQ",
  "INTERVAL",
  "BYDAY",
  "BYMONTHDAY",
  "BYHOUR",
  "BYMINUTE",
  "BYSECOND",
  "COUNT",
  "UNTIL",
  "WKST",
]);

// RFC 5545: with a DTSTART in a named zone, UNTIL must be in UTC form. A bare
// date is accepted too (and means "through the end of that local day").
function parseUntil(raw: string, value: string, fail: (why: string) => never): RRuleUntil {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value);
  const shape = "UNTIL must be a UTC date-time such as 20261231T235959Z or a date such as 20261231";
  if (!m) return fail(`part "${raw}": ${shape}.`);
  if (m[4] !== undefined && m[7] === undefined) {
    return fail(`part "${raw}": a local UNTIL date-time is ambiguous; ${shape}.`);
  }
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return fail(`part "${raw}": ${value.slice(0, 8)} is not a calendar date.`);
  }
  if (m[4] === undefined) return { kind: "date", year, month, day };
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (hour > 23 || minute > 59 || second > 59) {
    return fail(`part "${raw}": ${value.slice(9, 15)} is not a time of day.`);
  }
  // daysFromCivil rather than Date.UTC, which would map years 0..99 to 1900..1999.
  const days = daysFromCivil(year, month, day);
  return { kind: "instant", at: ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 };
}

function sortedUnique(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}
