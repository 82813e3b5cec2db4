import type { FixedTimerDefinition } from "../schema/timer";
import { parseOffsetDateTime } from "../time/offset-date-time";
import { statusFromTarget } from "./remaining";
import type { StatusInput, TimerStatusResult } from "./types";

/** Status of a fixed timer: it counts down to `deadline_at`. */
export function fixedStatus(
  input: StatusInput<FixedTimerDefinition>,
  now: number,
): TimerStatusResult {
  const deadline = parseOffsetDateTime(input.definition.deadline_at);
  // Definitions come from validateTimerCreate, so this only fires on corrupt data.
  if (deadline === null)
    throw new RangeError(`invalid deadline_at: ${input.definition.deadline_at}`);
  return statusFromTarget(deadline, input.clock, now);
}
