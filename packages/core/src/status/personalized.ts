// Status of a personalized timer: the deadline comes from the viewer's URL
// (resolvePersonalizedViewer has already checked syntax and signature), else
// from the timer's fallback_deadline_at, else the timer shows as ended.
//
// Clamping to max_seconds: for source "start" the countdown is at most
// max_seconds long from the recipient's own start, a fixed reference, so the
// clamped target never moves. For source "deadline" the URL carries nothing but
// the deadline; clamping against the publication time would end every recipient
// of a campaign older than max_seconds, so the deadline is clamped to
// now + max_seconds instead. Remaining time is then min(deadline - now, max):
// it never increases as time passes, it stands still only while the deadline is
// too far away, and it counts down normally once the deadline is in range.

import type { PersonalizedTimerDefinition } from "../schema/timer";
import { parseOffsetDateTime } from "../time/offset-date-time";
import { assertClock } from "./clock";
import { remainingParts, statusFromTarget } from "./remaining";
import type { StatusInput, TimerStatusResult } from "./types";

/**
 * Status of a personalized timer at `now` (epoch ms). A recipient start in the
 * future shows `not_started` with the full countdown; a viewer value absent or
 * invalid falls back to `fallback_deadline_at`, or to the ended state.
 */
export function personalizedStatus(
  input: StatusInput<PersonalizedTimerDefinition>,
  now: number,
): TimerStatusResult {
  const { definition, clock, viewer } = input;
  assertClock(clock, now);
  const p = definition.personalization;
  // Frozen while paused, like every other timer.
  const at = clock.paused_at ?? now;
  const maxMs = p.max_seconds * 1000;

  if (p.source === "deadline" && isInstant(viewer?.deadline_at)) {
    const target = Math.min(viewer.deadline_at, at + maxMs);
    return { ...statusFromTarget(target, clock, now), deadline_source: "viewer" };
  }
  if (p.source === "start" && isInstant(viewer?.start_at)) {
    const start = viewer.start_at;
    const lengthMs = Math.min(p.offset_seconds * 1000, maxMs);
    if (start > at) {
      // The recipient's countdown has not begun: show all of it, as duration timers do.
      return {
        remaining: remainingParts(lengthMs / 1000 + clock.extended_seconds),
        ended: false,
        state: "not_started",
        target_at: start + lengthMs + clock.extended_seconds * 1000 + clock.paused_ms,
        deadline_source: "viewer",
      };
    }
    return { ...statusFromTarget(start + lengthMs, clock, now), deadline_source: "viewer" };
  }

  const fallback =
    // Stryker disable next-line ConditionalExpression: equivalent, parseOffsetDateTime(null) is null too; the test only saves a call.
    p.fallback_deadline_at === null ? null : parseOffsetDateTime(p.fallback_deadline_at);
  if (fallback !== null)
    return { ...statusFromTarget(fallback, clock, now), deadline_source: "fallback" };
  return {
    remaining: remainingParts(0),
    ended: true,
    state: "ended",
    target_at: null,
    deadline_source: "none",
  };
}

function isInstant(value: number | undefined): value is number {
  return Number.isFinite(value);
}
