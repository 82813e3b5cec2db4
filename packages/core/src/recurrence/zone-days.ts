// The check behind zone-offset.ts's cache: at most one offset change per UTC day. Run in full
// over the runtime's tz data by scripts/check-zone-days.mjs (minutes: every zone, every day from
// 1970 to 2100), which records the result in zone-days.generated.ts; at start zone-offset.ts
// compares that record with the tz data the runtime has (zoneDataCheck).

import { intlOffsetMs } from "../time/intl-offset";
import { DAY_MS } from "./_local";
import type { OffsetSource } from "./zone-offset";

const HOUR_MS = 3_600_000;

/**
 * The UTC days from `fromDay` (inclusive) to `toDay` (exclusive), as day numbers from
 * 1970-01-01, on which IANA `zone` changes its offset more than once: read at each day's
 * start and at every whole hour of the days whose two ends differ. A change undone within the
 * same day leaves both ends equal and is not seen (nor is it by the cache's own check).
 * Throws a RangeError for a zone the runtime does not know.
 */
export function zoneDaysWithTwoChanges(
  zone: string,
  fromDay: number,
  toDay: number,
  source: OffsetSource = intlOffsetMs,
): number[] {
  const found: number[] = [];
  let start = source(zone, fromDay * DAY_MS);
  for (let day = fromDay; day < toDay; day++) {
    const end = source(zone, (day + 1) * DAY_MS);
    if (end !== start) {
      let changes = 0;
      let offset = start;
      for (let t = day * DAY_MS + HOUR_MS; t <= (day + 1) * DAY_MS; t += HOUR_MS) {
        const next = source(zone, t);
        if (next !== offset) changes++;
        offset = next;
      }
      if (changes > 1) found.push(day);
    }
    start = end;
  }
  return found;
}
