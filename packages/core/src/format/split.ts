import { TIME_UNITS, type TimeUnit, UNIT_SECONDS, unitRank } from "../time/units";

/** One shown unit of a countdown and its value. */
export interface RemainingPart {
  unit: TimeUnit;
  value: number;
}

/** Which units to show; see {@link splitRemaining}. */
export interface SplitOptions {
  /** Largest unit counted; larger amounts accumulate in it. Default "days". */
  largestUnit?: TimeUnit;
  /** Units shown, in any order; those larger than `largestUnit` are ignored. Default: all. */
  units?: readonly TimeUnit[];
  /**
   * Drop the largest shown units while they are zero ("0 days 05 hours" shows "05 hours"),
   * never the smallest shown one. Default false: every shown unit stays.
   */
  hideLeadingZeroUnits?: boolean;
}

/**
 * Splits a remaining time into the units a look shows, largest first. A hidden
 * unit's amount carries into the next smaller shown unit (days hidden: 50 hours),
 * and the smallest shown unit is rounded up, so a countdown that has not ended
 * never shows all zeros (59 s left with minutes only shows 1 minute).
 * @example splitRemaining(93_784, { units: ["days", "hours"] }) // [{unit:"days",value:1},{unit:"hours",value:3}]
 */
export function splitRemaining(totalSeconds: number, options: SplitOptions = {}): RemainingPart[] {
  return remainingSplitter(options)(totalSeconds);
}

/**
 * {@link splitRemaining} with its options applied once: an image splits the time of each of
 * its 60 frames, and working out the shown units each time was a share of its cost.
 * @example remainingSplitter({ units: ["days", "hours"] })(93_784) // [{unit:"days",value:1},{unit:"hours",value:3}]
 */
export function remainingSplitter(
  options: SplitOptions = {},
): (totalSeconds: number) => RemainingPart[] {
  const largest = options.largestUnit ?? "days";
  const wanted = new Set(options.units ?? TIME_UNITS);
  let shown = TIME_UNITS.filter((unit) => wanted.has(unit) && unitRank(unit) >= unitRank(largest));
  if (shown.length === 0) shown = [largest];
  const smallest = UNIT_SECONDS[shown[shown.length - 1]!];
  const hide = options.hideLeadingZeroUnits === true;
  return (totalSeconds) => {
    const total = Number.isFinite(totalSeconds) ? Math.max(0, Math.ceil(totalSeconds)) : 0;
    let rest = Math.ceil(total / smallest) * smallest;
    const parts = shown.map((unit) => {
      const value = Math.floor(rest / UNIT_SECONDS[unit]);
      rest -= value * UNIT_SECONDS[unit];
      return { unit, value };
    });
    return hide ? withoutLeadingZeroUnits(parts) : parts;
  };
}

/**
 * The parts from the first non-zero one on: the largest units are dropped while they are
 * zero, the smallest part always stays (all zeros: it alone). A zero unit between two
 * non-zero ones stays ("1 day 00 hours 05 minutes"): only leading zeros go. Dropping a zero
 * changes no sum, so the shown amounts still add up to the time split.
 * @example withoutLeadingZeroUnits([{unit:"days",value:0},{unit:"hours",value:5}]) // [{unit:"hours",value:5}]
 */
export function withoutLeadingZeroUnits<T extends { value: number }>(parts: readonly T[]): T[] {
  let first = 0;
  while (first < parts.length - 1 && parts[first]!.value === 0) first++;
  return parts.slice(first);
}
