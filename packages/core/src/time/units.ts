/** The units a countdown is shown in, largest first. */
export const TIME_UNITS = ["days", "hours", "minutes", "seconds"] as const;

/** One of {@link TIME_UNITS}. */
export type TimeUnit = (typeof TIME_UNITS)[number];

/** Seconds in one of each unit. */
export const UNIT_SECONDS: Readonly<Record<TimeUnit, number>> = {
  days: 86_400,
  hours: 3_600,
  minutes: 60,
  seconds: 1,
};

/** Position in {@link TIME_UNITS}: 0 for days (largest) to 3 for seconds. */
export function unitRank(unit: TimeUnit): number {
  return TIME_UNITS.indexOf(unit);
}
