import type { DurationTimerDefinition } from "../schema/timer";
import { parseOffsetDateTime } from "../time/offset-date-time";
import { assertClock } from "./clock";
import { remainingParts, statusFromTarget } from "./remaining";
import type { StatusInput, TimerStatusResult } from "./types";

/**
 * Status of a duration (evergreen) timer: `duration_seconds` from the viewer's
 * own start, else the timer's reset start, else its publication; capped at
 * `not_after`. Never published and no viewer start: not started, full duration.
 */
export function durationStatus(
  input: StatusInput<DurationTimerDefinition>,
  now: number,
): TimerStatusResult {
  const { definition, clock, viewer } = input;
  assertClock(clock, now);
  const start = viewer?.start_at ?? clock.started_at ?? clock.published_at;
  if (start === null) {
    return {
      remaining: remainingParts(definition.duration_seconds + clock.extended_seconds),
      ended: false,
      state: "not_started",
      target_at: null,
    };
  }
  let base = start + definition.duration_seconds * 1000;
  if (definition.not_after !== undefined) {
    const cap = parseOffsetDateTime(definition.not_after);
    if (cap === null) throw new RangeError(`invalid not_after: ${definition.not_after}`);
    // The cap bounds the campaign, not owner actions: extend and pause still apply after it.
    base = Math.min(base, cap);
  }
  return statusFromTarget(base, clock, now);
}
