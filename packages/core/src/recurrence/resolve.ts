// From wall-clock time to instants, with RFC 5545's rules made explicit:
//   - a wall time skipped by a transition (spring-forward gap) moves forward by
//     the length of the gap (02:30 in a 02:00->03:00 gap becomes 03:30);
//   - a wall time that happens twice (fall-back overlap) is the earlier instant.
// Luxon's DateTime.fromObject is not used for this: its choice between two
// ambiguous instants starts from the offset at the current date (luxon issues
// 1089 and 1665), so answers would change with the day the code runs.
//
// The tz database facts this module relies on (checked with `zdump -v -c
// 1800,2100` over every zone of zone.tab/zone1970.tab, tzdb 2025b):
//   - no two offset changes of a zone are less than 48 hours apart;
//   - no gap is longer than 24 hours (Pacific/Apia 2011, Pacific/Kiritimati 1994);
//   - every offset lies within -15:56 (Asia/Manila LMT) and +15:14 (Metlakatla LMT).

import type { LocalDateTime } from "../time/local-date-time";
import { DAY_MS, localMsOf } from "./_local";
import { zoneOffsetMs } from "./zone-offset";

/** A bound on the absolute UTC offset of every zone, for scan windows. */
export const MAX_ABS_OFFSET_MS = 16 * 3_600_000;

/**
 * The instant (epoch ms) of a wall-clock time in `zone`, local milliseconds in.
 * Gap: moved forward by the gap. Overlap: the earlier instant.
 */
export function resolveLocalMs(zone: string, localMs: number): number {
  // One transition at most lies within a day either side of the wall time (see
  // the tz facts above), and every candidate instant (localMs - offset) lies
  // inside that window, so the offsets a day before and a day after are the only
  // two offsets that can apply.
  const before = zoneOffsetMs(zone, localMs - DAY_MS);
  const after = zoneOffsetMs(zone, localMs + DAY_MS);
  // One offset all around: the only reading, and no further lookup (two days' entries
  // of the offset cache, not a third).
  if (before === after) return localMs - before;

  const early = localMs - before; // valid if still before the transition
  const late = localMs - after; // valid if already after it
  const earlyValid = zoneOffsetMs(zone, early) === before;
  const lateValid = zoneOffsetMs(zone, late) === after;
  // Only a reading after the transition takes `late`. Overlap (both valid): the earlier
  // instant, which is `early` since the offset fell (before > after). Gap (neither valid):
  // the skipped wall time read with the offset in force before the transition, which lands
  // exactly `gap` later on the wall clock: 02:30 EST is 03:30 EDT.
  return lateValid && !earlyValid ? late : early;
}

/**
 * The instant (epoch ms) of a wall-clock date-time in an IANA `zone`, following
 * RFC 5545: a time in a spring-forward gap moves forward by the gap's length, an
 * ambiguous (fall-back) time is the earlier instant.
 * @example resolveLocal({ year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0 }, "America/New_York") // 03:30 EDT = 2026-03-08T07:30:00Z
 */
export function resolveLocal(value: LocalDateTime, zone: string): number {
  return resolveLocalMs(zone, localMsOf(value));
}
