import { TIME_UNITS, type TimeUnit, UNIT_SECONDS, unitRank } from "../time/units";
import { assertClock } from "./clock";
import type { RemainingTime, TimerClock, TimerStatusResult } from "./types";

/**
 * Splits whole seconds into days, hours, minutes and seconds; amounts above
 * `largestUnit` accumulate in it (50 hours rather than 2 days 2 hours).
 * Negative and fractional input is clamped to 0 and rounded up.
 */
export function remainingParts(
  totalSeconds: number,
  // Stryker disable next-line StringLiteral: equivalent, an unknown unit ranks below days, so every unit is kept, as with "days".
  largestUnit: TimeUnit = "days",
): RemainingTime {
  const total = Number.isFinite(totalSeconds) ? Math.max(0, Math.ceil(totalSeconds)) : 0;
  const parts: RemainingTime = { total_seconds: total, days: 0, hours: 0, minutes: 0, seconds: 0 };
  let rest = total;
  for (const unit of TIME_UNITS) {
    if (unitRank(unit) < unitRank(largestUnit)) continue;
    parts[unit] = Math.floor(rest / UNIT_SECONDS[unit]);
    rest -= parts[unit] * UNIT_SECONDS[unit];
  }
  return parts;
}

/**
 * The status of any timer once its base target is known: applies extensions and
 * pauses, then counts down to the target. Every timer type ends here, so pause
 * and extend behave the same for all of them.
 */
export function statusFromTarget(
  baseTarget: number,
  clock: TimerClock,
  now: number,
): TimerStatusResult {
  assertClock(clock, now);
  if (!Number.isFinite(baseTarget)) throw new RangeError("invalid target: not a finite instant");
  const target = baseTarget + clock.extended_seconds * 1000 + clock.paused_ms;
  // A paused countdown is frozen where it stood when the pause began.
  const at = clock.paused_at ?? now;
  const ms = target - at;
  // The deadline instant itself counts as ended: "0 seconds left" must mean over.
  const ended = ms <= 0;
  const state = ended ? "ended" : clock.paused_at !== null ? "paused" : "running";
  return {
    // ceil: 1 ms left still shows 1 s, so a running timer never shows zero.
    remaining: remainingParts(Math.ceil(Math.max(0, ms) / 1000)),
    ended,
    state,
    target_at: state === "paused" ? target + Math.max(0, now - at) : target,
  };
}
