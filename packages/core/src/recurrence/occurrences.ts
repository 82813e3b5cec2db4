// One-shot occurrence queries. Each call reuses a cached Schedule for the same
// rule object, DTSTART, zone and exception dates, so repeated questions about one
// timer cost a search, not a set-up.

import type { LocalDateTime } from "../time/local-date-time";
import { boundedCache } from "./_bounded-cache";
import { localMsOf } from "./_local";
import type { RRule } from "./rrule";
import { createSchedule, type RecurrenceOptions, type Schedule } from "./schedule";

const schedules = new WeakMap<RRule, ReturnType<typeof boundedCache<string, Schedule>>>();

/** A new, registered cache of `rule`'s schedules. */
function cacheFor(rule: RRule) {
  const perRule = boundedCache<string, Schedule>(64);
  schedules.set(rule, perRule);
  return perRule;
}

function scheduleFor(
  rule: RRule,
  dtstart: LocalDateTime,
  zone: string,
  options?: RecurrenceOptions,
) {
  const perRule = schedules.get(rule) ?? cacheFor(rule);
  // The separator matters: [1700000123000, 1000] and [1700000, 1230001000] join alike without
  // it. An absent list keys as "undefined", apart from an empty one: one more set-up at most.
  const exdates = options?.exdates?.map(localMsOf).join(",");
  const key = `${zone}|${localMsOf(dtstart)}|${exdates}`;
  return perRule.get(key, () => createSchedule(rule, dtstart, zone, options));
}

/**
 * First occurrence instant (epoch ms) strictly after `after`, or `null` after the
 * last one. An occurrence exactly at `after` does not count: at that instant its
 * countdown has ended. Throws a RangeError for an unknown zone.
 * @example nextOccurrence(rule, { year: 2020, month: 3, day: 2, hour: 9, minute: 30, second: 0 }, "America/New_York", Date.now())
 */
export function nextOccurrence(
  rule: RRule,
  dtstart: LocalDateTime,
  zone: string,
  after: number,
  options?: RecurrenceOptions,
): number | null {
  return scheduleFor(rule, dtstart, zone, options).next(after);
}

/** Last occurrence instant (epoch ms) at or before `at`, or `null` before the first one. */
export function previousOccurrence(
  rule: RRule,
  dtstart: LocalDateTime,
  zone: string,
  at: number,
  options?: RecurrenceOptions,
): number | null {
  return scheduleFor(rule, dtstart, zone, options).previous(at);
}

/**
 * Occurrence instants `t` with `from < t <= to`, in increasing order, at most
 * `limit` of them (default 1,000).
 */
export function occurrencesBetween(
  rule: RRule,
  dtstart: LocalDateTime,
  zone: string,
  from: number,
  to: number,
  options?: RecurrenceOptions & { limit?: number },
): number[] {
  const schedule = scheduleFor(rule, dtstart, zone, options);
  const limit = options?.limit ?? 1000;
  const out: number[] = [];
  for (
    let t = schedule.next(from);
    t !== null && t <= to && out.length < limit;
    t = schedule.next(t)
  ) {
    out.push(t);
  }
  return out;
}
