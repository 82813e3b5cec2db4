import type { TimerClock } from "./types";

/** The clock of a timer that was never published, paused or extended. */
export function emptyClock(): TimerClock {
  return {
    published_at: null,
    paused_at: null,
    paused_ms: 0,
    extended_seconds: 0,
    started_at: null,
  };
}

/**
 * Why a clock or `now` cannot be given a status, or null when they can. Extensions
 * only ever add (the API takes 1..31,622,400 seconds per extend) and pauses only
 * ever last, so a negative sum is corrupt data, not a shorter timer: accepting it
 * would let a not-started timer shrink to zero without having ended.
 */
export function clockIssue(clock: TimerClock, now: number): string | null {
  if (!Number.isFinite(now)) return "now must be a finite instant";
  for (const key of ["published_at", "paused_at", "started_at"] as const) {
    const value = clock[key];
    if (value !== null && !Number.isFinite(value)) return `${key} must be null or a finite instant`;
  }
  if (!(Number.isFinite(clock.paused_ms) && clock.paused_ms >= 0))
    return "paused_ms must be a finite number >= 0";
  if (!(Number.isInteger(clock.extended_seconds) && clock.extended_seconds >= 0))
    return "extended_seconds must be an integer >= 0";
  return null;
}

/** Throws a RangeError naming the problem when `clockIssue` finds one. */
export function assertClock(clock: TimerClock, now: number): void {
  const issue = clockIssue(clock, now);
  if (issue !== null) throw new RangeError(`invalid timer clock: ${issue}`);
}
