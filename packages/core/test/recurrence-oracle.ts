// A deliberately naive model of the recurrence rules for property tests: it
// walks every local day from DTSTART and asks "does this wall time match?",
// sharing no code with expand.ts or schedule.ts. Only the wall-time -> instant
// resolver is shared (it has its own table tests in recurrence-resolve.test.ts).
import { resolveLocal } from "../src/recurrence/resolve";
import type { RRule } from "../src/recurrence/rrule";
import type { LocalDateTime } from "../src/time/local-date-time";

const DAY = 86_400_000;

/** Local milliseconds (wall time read as UTC) via Date.UTC; fine for years >= 100. */
export function wallMs(v: LocalDateTime): number {
  return Date.UTC(v.year, v.month - 1, v.day, v.hour, v.minute, v.second);
}

/** Wall time of local milliseconds. */
export function wallOf(ms: number): LocalDateTime {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

const isoWeekday = (dayNumber: number) => ((((dayNumber + 3) % 7) + 7) % 7) + 1; // 1970-01-01: Thursday
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whether wall time `w` is one the rule generates (before resolving to an instant). */
export function naiveMatches(rule: RRule, dtstart: LocalDateTime, w: LocalDateTime): boolean {
  if (wallMs(w) < wallMs(dtstart)) return false;
  const hours = rule.byHour.length ? rule.byHour : [dtstart.hour];
  const minutes = rule.byMinute.length ? rule.byMinute : [dtstart.minute];
  const seconds = rule.bySecond.length ? rule.bySecond : [dtstart.second];
  if (!hours.includes(w.hour) || !minutes.includes(w.minute) || !seconds.includes(w.second))
    return false;

  const day = Math.floor(wallMs({ ...w, hour: 0, minute: 0, second: 0 }) / DAY);
  const startDay = Math.floor(wallMs({ ...dtstart, hour: 0, minute: 0, second: 0 }) / DAY);
  const weekday = isoWeekday(day);
  const dim = daysIn(w.year, w.month);
  const monthDayOk = (list: readonly number[]) =>
    list.some((d) => (d > 0 ? d : dim + d + 1) === w.day);

  if (rule.freq === "DAILY") {
    if ((day - startDay) % rule.interval !== 0) return false;
    if (rule.byDay.length && !rule.byDay.some((d) => d.weekday === weekday)) return false;
    return rule.byMonthDay.length === 0 || monthDayOk(rule.byMonthDay);
  }
  if (rule.freq === "WEEKLY") {
    const weekStart = (d: number) => d - ((isoWeekday(d) - rule.wkst + 7) % 7);
    if (((weekStart(day) - weekStart(startDay)) / 7) % rule.interval !== 0) return false;
    const days = rule.byDay.length ? rule.byDay.map((d) => d.weekday) : [isoWeekday(startDay)];
    return days.includes(weekday);
  }
  const months = (w.year - dtstart.year) * 12 + (w.month - dtstart.month);
  if (months % rule.interval !== 0) return false;
  const weekdayOk = rule.byDay.some(
    (d) =>
      d.weekday === weekday &&
      (d.nth === null ||
        (d.nth > 0 && Math.ceil(w.day / 7) === d.nth) ||
        (d.nth < 0 && Math.floor((dim - w.day) / 7) + 1 === -d.nth)),
  );
  if (rule.byMonthDay.length && rule.byDay.length) return monthDayOk(rule.byMonthDay) && weekdayOk;
  if (rule.byMonthDay.length) return monthDayOk(rule.byMonthDay);
  if (rule.byDay.length) return weekdayOk;
  return w.day === dtstart.day;
}

/**
 * Every occurrence instant from DTSTART through local day `lastWall`, found by
 * walking day by day: COUNT counts generated wall times, EXDATEs remove the wall times they name
 * after counting, UNTIL is inclusive, equal instants are one occurrence.
 */
export function naiveOccurrences(
  rule: RRule,
  dtstart: LocalDateTime,
  zone: string,
  lastWall: number,
  exdates: readonly LocalDateTime[] = [],
): number[] {
  const excluded = new Set(exdates.map(wallMs));
  const hours = rule.byHour.length ? rule.byHour : [dtstart.hour];
  const minutes = rule.byMinute.length ? rule.byMinute : [dtstart.minute];
  const seconds = rule.bySecond.length ? rule.bySecond : [dtstart.second];
  const out: number[] = [];
  let counted = 0;
  for (
    let day = wallMs({ ...dtstart, hour: 0, minute: 0, second: 0 });
    day <= lastWall;
    day += DAY
  ) {
    const date = wallOf(day);
    for (const hour of [...hours].sort((a, b) => a - b))
      for (const minute of [...minutes].sort((a, b) => a - b))
        for (const second of [...seconds].sort((a, b) => a - b)) {
          const w = { ...date, hour, minute, second };
          if (!naiveMatches(rule, dtstart, w)) continue;
          if (rule.count !== null && counted >= rule.count) continue;
          counted++;
          const r = resolveLocal(w, zone);
          if (rule.until?.kind === "instant" && r > rule.until.at) continue;
          if (
            rule.until?.kind === "date" &&
            wallMs(w) >= Date.UTC(rule.until.year, rule.until.month - 1, rule.until.day + 1)
          )
            continue;
          if (!excluded.has(wallMs(w))) out.push(r);
        }
  }
  return [...new Set(out)].sort((a, b) => a - b);
}
