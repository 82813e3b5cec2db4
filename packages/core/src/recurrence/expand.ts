// Expansion of an RRULE into wall-clock candidates, one period at a time.
//
// A period is what FREQ repeats: a day (DAILY), a week starting on WKST
// (WEEKLY) or a calendar month (MONTHLY); period 0 contains DTSTART and period
// p is p * INTERVAL periods later. Every period's dates are computed directly
// from its index, so a search can jump to the period holding any instant
// instead of walking from DTSTART. Within a period, RFC 5545's table applies:
//   DAILY   BYMONTHDAY, BYDAY limit;   BYHOUR/BYMINUTE/BYSECOND expand
//   WEEKLY  BYDAY expands (default: DTSTART's weekday)
//   MONTHLY BYMONTHDAY expands; BYDAY expands, or limits when BYMONTHDAY is
//           present; neither: DTSTART's day of the month (months without that
//           day are skipped, RFC 5545 3.3.10 "invalid dates are ignored")
// Absent BYHOUR/BYMINUTE/BYSECOND take DTSTART's value.

import { daysFromCivil, daysInMonth } from "../time/_calendar";
import type { LocalDateTime } from "../time/local-date-time";
import { civilFromDays, DAY_MS, floorDiv, weekdayOfDay } from "./_local";
import type { RRule, RRuleWeekday } from "./rrule";

/** The calendar repeats every 400 years: 146,097 days, 4,800 months, a whole number of weeks. */
const CYCLE_DAYS = 146_097;
const CYCLE_MONTHS = 4_800;

/** A rule bound to its DTSTART, able to list any period's wall-clock candidates. */
export interface Expansion {
  /** Index of the period whose span contains local day `day` (may be negative). */
  periodOfDay(day: number): number;
  /** Sorted local milliseconds of the candidates of period `p` (DTSTART not yet applied). */
  candidates(p: number): number[];
  /**
   * Number of consecutive periods after which the pattern of dates repeats. A
   * scan that sees this many empty periods in a row will never see another match.
   */
  cycle: number;
}

/** Binds `rule` to its DTSTART for period-by-period expansion. */
export function expandRule(rule: RRule, dtstart: LocalDateTime): Expansion {
  const startDay = daysFromCivil(dtstart.year, dtstart.month, dtstart.day);
  const times = timesOfDay(rule, dtstart);
  const withTimes = (days: number[]): number[] => {
    const out: number[] = [];
    for (const day of days) for (const t of times) out.push(day * DAY_MS + t);
    return out;
  };

  if (rule.freq === "DAILY") {
    const weekdays = new Set(rule.byDay.map((d) => d.weekday));
    return {
      periodOfDay: (day) => floorDiv(day - startDay, rule.interval),
      candidates(p) {
        const day = startDay + p * rule.interval;
        if (weekdays.size > 0 && !weekdays.has(weekdayOfDay(day))) return [];
        if (rule.byMonthDay.length > 0 && !matchesMonthDay(rule.byMonthDay, day)) return [];
        return withTimes([day]);
      },
      // The fewest periods spanning whole 400-year cycles (a fruitless search's bound).
      cycle: CYCLE_DAYS / gcd(rule.interval, CYCLE_DAYS),
    };
  }

  if (rule.freq === "WEEKLY") {
    // Period 0 is the WKST-based week holding DTSTART; WKST only matters when
    // INTERVAL > 1, where it decides which weeks are "every other" one.
    const weekStart = startDay - ((weekdayOfDay(startDay) - rule.wkst + 7) % 7);
    const offsets = (
      rule.byDay.length > 0 ? rule.byDay.map((d) => d.weekday) : [weekdayOfDay(startDay)]
    )
      .map((w) => (w - rule.wkst + 7) % 7)
      .sort((a, b) => a - b);
    const span = 7 * rule.interval;
    return {
      periodOfDay: (day) => floorDiv(day - weekStart, span),
      candidates: (p) => withTimes(offsets.map((o) => weekStart + p * span + o)),
      cycle: 1, // every week has the listed weekdays
    };
  }

  const startMonth = dtstart.year * 12 + dtstart.month - 1;
  return {
    periodOfDay(day) {
      const { year, month } = civilFromDays(day);
      return floorDiv(year * 12 + month - 1 - startMonth, rule.interval);
    },
    candidates(p) {
      const index = startMonth + p * rule.interval;
      const year = Math.floor(index / 12);
      const month = index - year * 12 + 1;
      const first = daysFromCivil(year, month, 1);
      return withTimes(monthDays(rule, dtstart.day, year, month).map((d) => first + d - 1));
    },
    // As for DAILY, in months.
    cycle: CYCLE_MONTHS / gcd(rule.interval, CYCLE_MONTHS),
  };
}

/** Sorted milliseconds-of-day of the rule's times (product of hours, minutes, seconds). */
function timesOfDay(rule: RRule, dtstart: LocalDateTime): number[] {
  const hours = rule.byHour.length > 0 ? rule.byHour : [dtstart.hour];
  const minutes = rule.byMinute.length > 0 ? rule.byMinute : [dtstart.minute];
  const seconds = rule.bySecond.length > 0 ? rule.bySecond : [dtstart.second];
  const out: number[] = [];
  // Lists are sorted, so nesting hour > minute > second yields sorted times.
  for (const h of hours)
    for (const m of minutes) for (const s of seconds) out.push((h * 3600 + m * 60 + s) * 1000);
  return out;
}

/** Days of the month (1-based, sorted) that a MONTHLY rule selects in `year`-`month`. */
function monthDays(rule: RRule, startDayOfMonth: number, year: number, month: number): number[] {
  const length = daysInMonth(year, month);
  // Stryker disable next-line EqualityOperator: equivalent, the parser refuses BYMONTHDAY=0.
  const fromEnd = (d: number) => (d > 0 ? d : length + d + 1);
  const fromMonthDay =
    rule.byMonthDay.length > 0
      ? rule.byMonthDay.map(fromEnd).filter((d) => d >= 1 && d <= length)
      : null;
  const fromWeekday = rule.byDay.length > 0 ? weekdayDays(rule.byDay, year, month, length) : null;

  let days: number[];
  if (fromMonthDay && fromWeekday) {
    const allowed = new Set(fromWeekday);
    days = fromMonthDay.filter((d) => allowed.has(d));
  } else {
    days = fromMonthDay ?? fromWeekday ?? (startDayOfMonth <= length ? [startDayOfMonth] : []);
  }
  return [...new Set(days)].sort((a, b) => a - b);
}

/** Days of the month matching BYDAY entries: every such weekday, or its nth / nth-last one. */
function weekdayDays(
  byDay: readonly RRuleWeekday[],
  year: number,
  month: number,
  length: number,
): number[] {
  const firstWeekday = weekdayOfDay(daysFromCivil(year, month, 1));
  const out: number[] = [];
  for (const { weekday, nth } of byDay) {
    const first = 1 + ((weekday - firstWeekday + 7) % 7);
    if (nth === null) {
      for (let d = first; d <= length; d += 7) out.push(d);
      continue;
    }
    // Stryker disable next-line EqualityOperator: equivalent, the parser refuses the ordinal 0.
    if (nth > 0) {
      const d = first + 7 * (nth - 1);
      if (d <= length) out.push(d);
    } else {
      const last = first + 7 * Math.floor((length - first) / 7);
      const d = last + 7 * (nth + 1);
      if (d >= 1) out.push(d);
    }
  }
  return out;
}

/** Whether local `day` is one of the BYMONTHDAY days (negative: from the month's end). */
function matchesMonthDay(byMonthDay: readonly number[], day: number): boolean {
  const { year, month, day: dom } = civilFromDays(day);
  const length = daysInMonth(year, month);
  // Stryker disable next-line EqualityOperator: equivalent, the parser refuses BYMONTHDAY=0.
  return byMonthDay.some((d) => (d > 0 ? d === dom : length + d + 1 === dom));
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
