// UTC offsets of IANA zones at instants, memoised by UTC day.
//
// One offset lookup through Intl costs several microseconds (tens on a loaded machine), and
// recurrence scans ask for the same days again and again. Offsets are therefore cached per
// zone and UTC day: the offsets at both ends of a day, and, when they differ, the exact
// instant of the change. That is exact only while a day holds at most one change, which the
// tz database keeps (no zone changes its offset twice within 48 hours; see resolve.ts).
//
// The assumption is checked against the runtime's own tz data, not trusted: each day with a
// change is checked when it is first cached (the change found by bisection must be the only
// one: the offset at the change and at every whole hour of the day is the one the entry
// gives). A zone whose data breaks it falls back to the uncached exact path, one Intl lookup
// per call (until the bounded cache starts over, which only repeats the check). A change that is undone within the same UTC day leaves both ends
// equal and is not seen; the tz data has none (changes are 48 hours apart at least).
//
// It is also checked in full, once per tz data release: scripts/check-zone-days.mjs reads every
// zone's every day from 1970 to 2100 (minutes, too long for a start) and records the release and
// the zones that break it (zone-days.generated.ts). At start the runtime's release is compared
// with that record (zoneDataCheck): on the checked data, a zone listed there takes the exact path
// from its first use; on other data (another Node, a browser) the per-day check above is what
// stands, as it does before 1970 and after 2100.

import { intlOffsetMs } from "../time/intl-offset";
import { DAY_MS, floorDiv } from "./_local";
import { ZONE_DAYS_CHECKED } from "./zone-days.generated";

/** An offset function: UTC offset (ms) of IANA `zone` at `instant`. */
export type OffsetSource = (zone: string, instant: number) => number;

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
  /** Cached days; null once the zone broke the one-change-per-day assumption (exact path). */
  days: Map<number, DayEntry> | null;
}

/** Zones and days per zone the cache holds before it starts over. */
export const MAX_ZONES = 64;
export const MAX_DAYS_PER_ZONE = 20_000;
const HOUR_MS = 3_600_000;
const zones = new Map<string, ZoneCache>();
let source: OffsetSource = intlOffsetMs;

/** What the start found: the runtime's tz data against the release checked in full. */
export interface ZoneDataCheck {
  /** The runtime's tz data release (`process.versions.tz`), or null where it does not say. */
  runtime: string | null;
  /** The release scripts/check-zone-days.mjs checked, and the years it covered. */
  checked: string;
  from: number;
  to: number;
  /** Whether they are the same release: only then does `irregular` apply. */
  matches: boolean;
  /** Zones that change more than once in a UTC day (in that release): always the exact path. */
  irregular: readonly string[];
}

/** The check made at start, from the runtime's release and the record of the full check. */
export function checkZoneData(runtime: string | null): ZoneDataCheck {
  const { tz, from, to, irregular } = ZONE_DAYS_CHECKED;
  return { runtime, checked: tz, from, to, matches: runtime === tz, irregular };
}

/** Where a runtime says which tz data it has: Node's `process.versions.tz`. */
interface TzReleaseHost {
  process?: { versions?: { tz?: string } };
}

/** The tz data release `host` (the runtime's `globalThis`) reports; null where it says none (a browser). */
export function tzReleaseOf(host: object): string | null {
  return (host as TzReleaseHost).process?.versions?.tz ?? null;
}

let atStart = checkZoneData(tzReleaseOf(globalThis));

/**
 * The check of the runtime's tz data made at start (see the module's comment): which release
 * it is, whether the one-change-per-day assumption was checked in full on it, and the zones
 * that break it there.
 */
export function zoneDataCheck(): ZoneDataCheck {
  return atStart;
}

/**
 * For tests: read offsets from `next` (the runtime's Intl when omitted) and forget every
 * cached zone. A source that breaks the one-change-per-day assumption shows the fallback;
 * `check` stands for the check at start (what the runtime's data gives when omitted).
 */
export function useOffsetSource(
  next: OffsetSource = intlOffsetMs,
  check: ZoneDataCheck = checkZoneData(tzReleaseOf(globalThis)),
): void {
  source = next;
  atStart = check;
  zones.clear();
}

/**
 * Whether the check at start found `zone` breaking the assumption in the runtime's data. The
 * record names zones as Intl lists them; a link (US/Eastern) is looked up by the zone it is.
 */
function irregularAtStart(zone: string): boolean {
  if (!atStart.matches || atStart.irregular.length === 0) return false;
  const canonical = new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  return atStart.irregular.includes(canonical);
}

function zoneCache(name: string): ZoneCache {
  let cache = zones.get(name);
  if (cache === undefined) {
    source(name, 0); // throws a RangeError for an unknown zone
    if (zones.size >= MAX_ZONES) zones.clear();
    cache = { zone: name, days: irregularAtStart(name) ? null : new Map() };
    zones.set(name, cache);
  }
  return cache;
}

/**
 * The entry of UTC `day`, or null when the day holds more than one change: the zone then
 * takes the exact path from now on.
 */
function dayEntry(cache: ZoneCache, days: Map<number, DayEntry>, day: number): DayEntry | null {
  const known = days.get(day);
  if (known !== undefined) return known;
  const start = day * DAY_MS;
  const end = start + DAY_MS;
  const first = source(cache.zone, start);
  const second = source(cache.zone, end);
  let change = Number.POSITIVE_INFINITY;
  if (first !== second) {
    // Binary search for the first second with the new offset: transitions fall on whole
    // seconds, so 17 steps at most pin it down within the day.
    let lo = start; // offset === first
    let hi = end; // offset !== first
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (source(cache.zone, mid) === first) lo = mid;
      else hi = mid;
    }
    change = hi;
    if (!onlyChange(cache.zone, start, change, first, second)) {
      cache.days = null;
      return null;
    }
  }
  const entry = { first, second, change };
  if (days.size >= MAX_DAYS_PER_ZONE) days.clear();
  days.set(day, entry);
  return entry;
}

/**
 * Whether `change` is the day's only change: the offset there is `second`, and at every
 * whole hour of the day it is `first` before the change and `second` from it on.
 */
function onlyChange(
  zone: string,
  start: number,
  change: number,
  first: number,
  second: number,
): boolean {
  if (source(zone, change) !== second) return false;
  for (let t = start + HOUR_MS; t < start + DAY_MS; t += HOUR_MS) {
    if (source(zone, t) !== (t < change ? first : second)) return false;
  }
  return true;
}

/**
 * UTC offset in milliseconds of IANA `zone` at `instant` (epoch ms), e.g.
 * -18000000 for New York in winter. Throws a RangeError for an unknown zone.
 */
export function zoneOffsetMs(zone: string, instant: number): number {
  const cache = zoneCache(zone);
  const entry = cache.days && dayEntry(cache, cache.days, floorDiv(instant, DAY_MS));
  if (!entry) return source(zone, instant);
  return instant < entry.change ? entry.first : entry.second;
}
