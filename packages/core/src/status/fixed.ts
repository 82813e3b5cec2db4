import { resolveLocal } from "../recurrence/resolve";
import type { FixedTimerDefinition } from "../schema/timer";
import { parseLocalDateTime } from "../time/local-date-time";
import { parseOffsetDateTime } from "../time/offset-date-time";
import { statusFromTarget } from "./remaining";
import type { StatusInput, TimerStatusResult } from "./types";

/**
 * The deadline of a fixed timer (epoch ms) before extensions and pauses: its
 * `deadline_at`, or its `deadline_local` read in its `timezone` with the
 * recurrence rules (a time in a gap moves forward by the gap, a repeated time
 * is the earlier instant).
 */
export function fixedDeadlineMs(definition: FixedTimerDefinition): number {
  // A wall-clock deadline is stored as the client sent it (local time and zone)
  // and resolved here, on every read, never frozen into an instant at creation.
  // The instant depends on the zone's rules in the runtime's tz data (ICU, which
  // ships with Node); when an update changes them (Mexico dropped DST in 2022,
  // Greenland moved to -02 in 2023), every status, page, image and timer object
  // follows on the first read after the upgrade, with no stored instant to go
  // stale, no tz version to compare and no migration to run. The price is a few
  // offset lookups per read, cached per zone and day (zone-offset.ts): well
  // under a microsecond once warm. Processes with different tz data (a rolling
  // upgrade) may briefly disagree, as they do on every recurring timer.
  if (definition.deadline_local !== undefined) {
    const local = parseLocalDateTime(definition.deadline_local);
    if (local === null)
      throw new RangeError(`invalid deadline_local: ${definition.deadline_local}`);
    return resolveLocal(local, definition.timezone);
  }
  const deadline =
    // Stryker disable next-line ConditionalExpression: equivalent, parseOffsetDateTime(undefined) is null too; the test is for the type.
    definition.deadline_at === undefined ? null : parseOffsetDateTime(definition.deadline_at);
  // Definitions come from validateTimerCreate, so this only fires on corrupt data.
  if (deadline === null) throw new RangeError(`invalid deadline_at: ${definition.deadline_at}`);
  return deadline;
}

/** Status of a fixed timer: it counts down to its deadline (see {@link fixedDeadlineMs}). */
export function fixedStatus(
  input: StatusInput<FixedTimerDefinition>,
  now: number,
): TimerStatusResult {
  return statusFromTarget(fixedDeadlineMs(input.definition), input.clock, now);
}
