// Occurrence search: the first occurrence after an instant and the last one at or
// before it, for a rule bound to a DTSTART, a zone and exception dates.
//
// Semantics (RFC 5545 3.8.5.3 and 3.3.10):
//   - the rule generates wall-clock times in DTSTART's zone; those before DTSTART
//     are dropped; DTSTART itself is an occurrence only if the rule generates it
//     (as in rrule.js; RFC 5545 leaves a non-matching DTSTART undefined);
//   - each wall time becomes an instant once (resolve.ts: gap -> forward by the
//     gap, overlap -> earlier instant); occurrences form a set of instants, so two
//     wall times that land on one instant (02:30 in a gap and 03:30) are one;
//   - an EXDATE removes the wall time it names, before that wall time is resolved
//     (RFC 5545 practice: EXDATE matches the recurrence's local DATE-TIME), so a
//     wall time in a gap that shifts onto an excluded wall time's instant stays
//     an occurrence, and an EXDATE in a gap removes only a wall time generated
//     at that very reading;
//   - COUNT counts generated wall times from DTSTART in wall-clock order,
//     EXDATEs included (they are removed after counting);
//   - UNTIL is inclusive: a UTC UNTIL compares instants, a date UNTIL keeps wall
//     times on or before that local date;
//   - occurrences after 9999-12-31 (local) are not generated.
//
// Performance: without COUNT the search jumps to the period that holds the
// instant (expand.ts) and looks at a window of about a day and a half of wall time,
// never walking from DTSTART. With COUNT the finite list (at most 10,000) is built
// once per schedule and searched by bisection.

import { daysFromCivil } from "../time/_calendar";
import type { LocalDateTime } from "../time/local-date-time";
import { DAY_MS, floorDiv, localMsOf } from "./_local";
import { type Expansion, expandRule } from "./expand";
import { MAX_ABS_OFFSET_MS, resolveLocalMs } from "./resolve";
import type { RRule } from "./rrule";
import { zoneOffsetMs } from "./zone-offset";

/** Options shared by the occurrence functions. */
export interface RecurrenceOptions {
  /**
   * Wall-clock exception dates (RFC 5545 EXDATE) in the rule's zone, matched against
   * the wall times the rule generates (not against the instants they resolve to);
   * they still count toward COUNT.
   */
  exdates?: readonly LocalDateTime[];
}

/** A rule bound to DTSTART, a zone and exception dates, answering occurrence queries. */
export interface Schedule {
  /** First occurrence instant (epoch ms) strictly after `after`, or `null` when there is none. */
  next(after: number): number | null;
  /** Last occurrence instant (epoch ms) at or before `at`, or `null` when there is none. */
  previous(at: number): number | null;
}

/** Local milliseconds of 10000-01-01T00:00: nothing at or after it is generated. */
const HORIZON_LOCAL = daysFromCivil(10_000, 1, 1) * DAY_MS;

/**
 * Binds `rule` to a wall-clock DTSTART in IANA `zone`. Prefer this over the
 * one-shot functions when asking many questions of the same rule.
 * Throws a RangeError for an unknown zone.
 * @example
 * const s = createSchedule(parseRRule("FREQ=WEEKLY;BYDAY=MO").rule, { year: 2026, month: 1, day: 5, hour: 9, minute: 0, second: 0 }, "Europe/Paris");
 * s.next(Date.UTC(2026, 0, 6)) // 2026-01-12T08:00:00Z
 */
export function createSchedule(
  rule: RRule,
  dtstart: LocalDateTime,
  zone: string,
  options: RecurrenceOptions = {},
): Schedule {
  zoneOffsetMs(zone, 0); // throws now, not on the first query, for an unknown zone
  const expansion = expandRule(rule, dtstart);
  const startLocal = localMsOf(dtstart);
  const excluded = new Set(options.exdates?.map(localMsOf));

  // Wall times at or after endLocal can never be occurrences.
  let endLocal = HORIZON_LOCAL;
  let untilAt = Number.POSITIVE_INFINITY;
  const until = rule.until;
  if (until?.kind === "date") {
    endLocal = Math.min(endLocal, (daysFromCivil(until.year, until.month, until.day) + 1) * DAY_MS);
  } else if (until?.kind === "instant") {
    untilAt = until.at;
    // A wall time 16 h past UNTIL or later resolves after it: no offset reaches 16 h.
    endLocal = Math.min(endLocal, until.at + MAX_ABS_OFFSET_MS);
  }
  const scan = { expansion, startLocal, endLocal };
  // `local` is the generated wall time, `r` the instant it resolves to.
  const accept = (local: number, r: number) => r <= untilAt && !excluded.has(local);

  if (rule.count !== null) {
    return finiteSchedule(listCounted(scan, rule.count, zone, accept));
  }

  // Outside these instants the answers are known without looking at the zone,
  // which also keeps offset lookups within the years Intl handles well.
  const firstPossible = startLocal - MAX_ABS_OFFSET_MS;
  const lastPossible = Math.min(untilAt, endLocal + MAX_ABS_OFFSET_MS);

  return {
    next(after) {
      checkInstant(after);
      // A shortcut, not a rule (the scan would find nothing either), that reads no offset.
      if (after >= lastPossible) return null;
      // A wall time earlier than this cannot land after `after`, except one in a
      // gap that ended within the last day: reading `after` with the older of
      // the two offsets covers that case (see resolve.ts for the tz facts).
      const from =
        // Stryker disable next-line EqualityOperator: equivalent, at firstPossible the other reading is at most startLocal, and the scan starts at startLocal either way.
        after < firstPossible
          ? startLocal
          : after + Math.min(zoneOffsetMs(zone, after), zoneOffsetMs(zone, after - DAY_MS));
      let best: number | null = null;
      let stop = Number.POSITIVE_INFINITY;
      scanForward(scan, from, (local) => {
        // Stryker disable next-line EqualityOperator: equivalent, a wall time read exactly at stop resolves no earlier than best.
        if (local > stop) return false;
        const r = resolveLocalMs(zone, local);
        if (r <= after || !accept(local, r)) return true;
        if (best === null) {
          // Later wall times can still land earlier only just after a gap, on
          // instants whose wall-clock reading is at most r's reading.
          best = r;
          stop =
            r + Math.max(zoneOffsetMs(zone, r), zoneOffsetMs(zone, Math.max(after, firstPossible)));
        } else {
          best = Math.min(best, r);
        }
        return true;
      });
      return best;
    },

    previous(at) {
      checkInstant(at);
      // A shortcut that reads no offset (and keeps offset lookups in range).
      // Stryker disable next-line EqualityOperator: equivalent, at exactly firstPossible the scan finds nothing either (every occurrence is later); only the offsets read differ.
      if (at < firstPossible) return null;
      const a = Math.min(at, lastPossible);
      // Overlaps make wall times later than `a`'s reading land before `a`; the
      // larger offset of the last day covers them.
      const from = a + Math.max(zoneOffsetMs(zone, a), zoneOffsetMs(zone, a - DAY_MS));
      let best: number | null = null;
      let stop = Number.NEGATIVE_INFINITY;
      scanBackward(scan, from, (local) => {
        // Stryker disable next-line EqualityOperator: equivalent, a wall time read exactly at stop resolves no later than best.
        if (local < stop) return false;
        const r = resolveLocalMs(zone, local);
        if (r > a || !accept(local, r)) return true;
        if (best === null) {
          // Earlier wall times can land later only inside a gap just before r.
          best = r;
          stop = r + Math.min(zoneOffsetMs(zone, r), zoneOffsetMs(zone, r - DAY_MS));
        } else {
          best = Math.max(best, r);
        }
        return true;
      });
      return best;
    },
  };
}

interface Scan {
  expansion: Expansion;
  startLocal: number;
  endLocal: number;
}

/** Visits candidate wall times >= `from` in increasing order until `visit` returns false. */
function scanForward(scan: Scan, from: number, visit: (local: number) => boolean): void {
  const { expansion, startLocal, endLocal } = scan;
  const lower = Math.max(from, startLocal);
  const first = expansion.periodOfDay(floorDiv(lower, DAY_MS)); // >= 0: lower >= startLocal
  for (
    let found = periodWithCandidates(expansion, first, 1);
    found !== null;
    found = periodWithCandidates(expansion, found.p + 1, 1)
  ) {
    for (const local of found.list) {
      if (local < lower) continue;
      if (local >= endLocal) return;
      if (!visit(local)) return;
    }
  }
}

/** Visits candidate wall times <= `from` in decreasing order until `visit` returns false. */
function scanBackward(scan: Scan, from: number, visit: (local: number) => boolean): void {
  const { expansion, startLocal, endLocal } = scan;
  const upper = Math.min(from, endLocal - 1);
  // No test of period 0 or of upper < startLocal: every candidate of a period before 0 is
  // before startLocal, and so is every candidate of period 0 that is not above `upper`
  // when upper < startLocal, so the loop returns on its own (at most a cycle later).
  // One call site for both the first period and the next ones: with two, a step of +1 in
  // the first would go unnoticed (it finds a later period, all above `upper`, then turns).
  for (let p = expansion.periodOfDay(floorDiv(upper, DAY_MS)); ; ) {
    const found = periodWithCandidates(expansion, p, -1);
    if (found === null) return;
    // A reversed copy, not an index loop: an index read past the end would go unnoticed
    // (undefined resolves to NaN, which is never accepted).
    for (const local of [...found.list].reverse()) {
      if (local > upper) continue;
      if (local < startLocal) return;
      if (!visit(local)) return;
    }
    p = found.p - 1;
  }
}

/**
 * The first period from `p` on, stepping by `step`, that has candidates, with them; null
 * after a whole cycle of empty periods: the calendar repeats, so no later one has any.
 * Both scans share it, so the forward scan (which would never end without it) pins it.
 */
function periodWithCandidates(
  expansion: Expansion,
  p: number,
  step: 1 | -1,
): { p: number; list: number[] } | null {
  // `!==`, not `<`: `empty` counts up from 0, and `<=` there would be an unkillable mutant.
  for (let empty = 0; empty !== expansion.cycle; empty++, p += step) {
    const list = expansion.candidates(p);
    if (list.length > 0) return { p, list };
  }
  return null;
}

/** The occurrences of a COUNT rule: the first `count` wall times, resolved, filtered, sorted. */
function listCounted(
  scan: Scan,
  count: number,
  zone: string,
  accept: (local: number, r: number) => boolean,
): number[] {
  const instants: number[] = [];
  let seen = 0;
  scanForward(scan, scan.startLocal, (local) => {
    const r = resolveLocalMs(zone, local);
    if (accept(local, r)) instants.push(r);
    return ++seen < count;
  });
  // Gap shifts can reorder wall times. They can also merge two onto one instant, which is
  // left twice in the list: finiteSchedule answers "the first instant > t", so equal
  // neighbours are never told apart.
  return instants.sort((a, b) => a - b);
}

function finiteSchedule(instants: readonly number[]): Schedule {
  /** Index of the first instant > t. */
  const upperBound = (t: number) => {
    let lo = 0;
    let hi = instants.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (instants[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    next(after) {
      checkInstant(after);
      return instants[upperBound(after)] ?? null;
    },
    previous(at) {
      checkInstant(at);
      return instants[upperBound(at) - 1] ?? null;
    },
  };
}

function checkInstant(t: number): void {
  if (Number.isNaN(t)) throw new RangeError("An instant must be a number of milliseconds, not NaN");
}
