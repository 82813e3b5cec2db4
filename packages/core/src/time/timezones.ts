import { intlOffsetMs } from "./intl-offset";
import { TZDB_VERSION, ZONE_NAMES } from "./zones.generated";

export { TZDB_VERSION };

/**
 * Canonical IANA zone names accepted for a timer's `timezone`, sorted: the tz
 * database's zone.tab and zone1970.tab plus `Etc/UTC` (see scripts/gen-zones.mjs).
 */
export const timeZoneNames: readonly string[] = ZONE_NAMES;

const canonical: ReadonlySet<string> = new Set(ZONE_NAMES);

/**
 * Whether `name` is exactly one of {@link timeZoneNames}. Case-sensitive and
 * independent of the JS engine, whose Intl accepts links (Asia/Calcutta),
 * abbreviations (EST) and any letter case (europe/london).
 */
export function isCanonicalTimeZone(name: string): boolean {
  return canonical.has(name);
}

/** One entry of the time zone list, as GET /timezones returns it. */
export interface TimeZoneDescription {
  id: string;
  /** Offset at `now`, like "+05:30" or "-03:00" ("+00:00" for UTC). */
  utc_offset: string;
  utc_offset_minutes: number;
  /** Whether the offset changes during the 12 months after `now`. */
  observes_dst: boolean;
}

const DAY_MS = 86_400_000;
// Samples every 14 days: 27 ICU lookups per zone keeps the whole list cheap,
// and every offset period in the tz database lasts longer than two weeks (the
// shortest, Morocco's suspension of +01 during Ramadan, lasts about five).
const SAMPLE_STEP_MS = 14 * DAY_MS;
const HORIZON_MS = 366 * DAY_MS;
const SAMPLES = Math.ceil(HORIZON_MS / SAMPLE_STEP_MS);

/**
 * The zone's offset at `now` and whether it observes DST, meaning its offset
 * changes within the 12 months after `now`. The runtime's Intl (ICU) does the offset math.
 * Throws a RangeError for a name that {@link isCanonicalTimeZone} rejects.
 */
export function describeTimeZone(name: string, now: number): TimeZoneDescription {
  if (!isCanonicalTimeZone(name)) throw new RangeError(`not a canonical time zone: ${name}`);
  const offsetMinutes = (at: number) => intlOffsetMs(name, at) / 60_000;
  const minutes = offsetMinutes(now);
  let observesDst = false;
  // The last sample is the horizon itself, so a change in its final days counts.
  for (let i = 1; i <= SAMPLES && !observesDst; i++) {
    observesDst = offsetMinutes(now + Math.min(i * SAMPLE_STEP_MS, HORIZON_MS)) !== minutes;
  }
  return {
    id: name,
    utc_offset: formatUtcOffset(minutes),
    utc_offset_minutes: minutes,
    observes_dst: observesDst,
  };
}

/** "+05:30" for 330, "-03:30" for -210, "+00:00" for 0. */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${sign}${hh}:${mm}`;
}
