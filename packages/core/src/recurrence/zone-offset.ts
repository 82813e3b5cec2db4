// UTC offsets of IANA zones at instants, memoised by UTC day.
//
// One offset lookup through Intl costs several microseconds, and recurrence
// scans ask for the same days again and again. Offsets are therefore cached per
// zone and UTC day: the offsets at both ends of a day, and, when they differ,
// the exact instant of the change. This is exact because no zone changes its
// offset twice within 48 hours (see resolve.ts), so a day holds at most one
// transition. The cache is bounded; it only ever holds facts of the tz database.

import { intlOffsetMs } from "../time/intl-offset";
import { DAY_MS, floorDiv } from "./_local";

interface DayEntry {
  /** Offset (ms) from the start of the day until `change`. */
  first: number;
  /** Offset (ms) from `change` to the end of the day. */
  second: number;
  /** Instant of the transition inside the day, or +Infinity for none. */
  change: number;
}

interface ZoneCache {
  zone: string;
  days: Map<number, DayEntry>;
}

const MAX_ZONES = 64;
const MAX_DAYS_PER_ZONE = 20_000;
const zones = new Map<string, ZoneCache>();

function zoneCache(name: string): ZoneCache {
  let cache = zones.get(name);
  // Stryker disable next-line ConditionalExpression: equivalent, a fresh zone cache answers alike and only costs lookups.
  if (cache === undefined) {
    intlOffsetMs(name, 0); // throws a RangeError for an unknown zone
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, when the cache is emptied only changes what a lookup costs.
    if (zones.size >= MAX_ZONES) zones.clear();
    cache = { zone: name, days: new Map() };
    zones.set(name, cache);
  }
  return cache;
}

/** Uncached offset in whole milliseconds (whole seconds for LMT). */
function rawOffset(zone: string, instant: number): number {
  return intlOffsetMs(zone, instant);
}

function dayEntry(cache: ZoneCache, day: number): DayEntry {
  let entry = cache.days.get(day);
  // Stryker disable next-line ConditionalExpression: equivalent, a recomputed entry is the same tz fact.
  if (entry !== undefined) return entry;
  const start = day * DAY_MS;
  const first = rawOffset(cache.zone, start);
  const second = rawOffset(cache.zone, start + DAY_MS);
  let change = Number.POSITIVE_INFINITY;
  // Stryker disable next-line ConditionalExpression: equivalent, searching a day without a change keeps hi at the day's end, so change is past every instant of the day.
  if (first !== second) {
    // Binary search for the first second with the new offset: transitions fall
    // on whole seconds, so 17 steps pin it down within the day.
    let lo = start; // offset === first
    let hi = start + DAY_MS; // offset === second
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (rawOffset(cache.zone, mid) === first) lo = mid;
      else hi = mid;
    }
    change = hi;
  }
  entry = { first, second, change };
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, when the cache is emptied only changes what a lookup costs.
  if (cache.days.size >= MAX_DAYS_PER_ZONE) cache.days.clear();
  cache.days.set(day, entry);
  return entry;
}

/**
 * UTC offset in milliseconds of IANA `zone` at `instant` (epoch ms), e.g.
 * -18000000 for New York in winter. Throws a RangeError for an unknown zone.
 */
export function zoneOffsetMs(zone: string, instant: number): number {
  const entry = dayEntry(zoneCache(zone), floorDiv(instant, DAY_MS));
  return instant < entry.change ? entry.first : entry.second;
}
