// Status of a recurring timer: count down to the next occurrence; after each
// occurrence show the ended state for `ended_hold_seconds`; after the last one
// (COUNT/UNTIL) stay ended for good.
//
// Pause and extend act as on every other timer (remaining.ts): the timer's
// clock runs `paused_ms + extended_seconds` behind the wall clock, so the whole
// schedule moves later by that amount and a resumed countdown continues where
// it stopped instead of jumping.

import { compileRecurrence } from "../recurrence/compile";
import type { RecurringTimerDefinition } from "../schema/timer";
import { assertClock } from "./clock";
import { remainingParts, statusFromTarget } from "./remaining";
import type { StatusInput, TimerStatusResult } from "./types";

/**
 * Status of a recurring timer at `now` (epoch ms). At an occurrence's own
 * instant the countdown to it has ended; the next countdown starts once the
 * hold is over (immediately after that instant when the hold is 0).
 */
export function recurringStatus(
  input: StatusInput<RecurringTimerDefinition>,
  now: number,
): TimerStatusResult {
  const { definition, clock } = input;
  assertClock(clock, now);
  const schedule = compileRecurrence(definition.recurrence, definition.timezone);
  const shift = clock.extended_seconds * 1000 + clock.paused_ms;
  // The instant on the schedule's own clock: frozen while paused, behind by shift.
  const at = (clock.paused_at ?? now) - shift;
  const hold = definition.recurrence.ended_hold_seconds * 1000;

  const previous = schedule.previous(at);
  const next = schedule.next(at);
  const shifted = (t: number | null) => (t === null ? null : t + shift);
  const extra = { next_occurrence_at: shifted(next), final: next === null };

  // The hold window is [occurrence, occurrence + hold); it always holds the
  // occurrence instant itself, so "0 seconds left" is reported as ended.
  if (previous !== null && (at - previous < hold || at === previous || next === null)) {
    return {
      ...statusFromTarget(previous, clock, now),
      occurrence_at: shifted(previous),
      ...extra,
    };
  }
  if (next === null) {
    // The rule never produces an occurrence: nothing to count down to.
    return {
      remaining: remainingParts(0),
      ended: true,
      state: "ended",
      target_at: null,
      occurrence_at: null,
      ...extra,
    };
  }
  return { ...statusFromTarget(next, clock, now), occurrence_at: shifted(next), ...extra };
}
