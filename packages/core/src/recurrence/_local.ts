// Wall-clock arithmetic on "local milliseconds": a wall-clock date-time encoded
// as if it were UTC. All calendar work (periods, weekdays, month lengths) is done
// on these numbers and never touches a Date's local-time methods, so nothing can
// depend on the host's time zone.

import { daysFromCivil } from "../time/_calendar";
import type { LocalDateTime } from "../time/local-date-time";
import type { Weekday } from "./rrule";

/** Milliseconds in a calendar day of wall-clock time. */
export const DAY_MS = 86_400_000;

/** Floor division for possibly negative numerators (periods before 1970). */
export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/** Local milliseconds of a wall-clock value. */
export function localMsOf(value: LocalDateTime): number {
  const days = daysFromCivil(value.year, value.month, value.day);
  return ((days * 24 + value.hour) * 60 + value.minute) * 60_000 + value.second * 1000;
}

/** Civil date of a day count from 1970-01-01 (Howard Hinnant's civil_from_days). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** ISO weekday of a day count (1970-01-01 was a Thursday). */
export function weekdayOfDay(days: number): Weekday {
  return (((((days + 3) % 7) + 7) % 7) + 1) as Weekday;
}
