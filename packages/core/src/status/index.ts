import { durationStatus } from "./duration";
import { fixedStatus } from "./fixed";
import { personalizedStatus } from "./personalized";
import { recurringStatus } from "./recurring";
import type { StatusInput, TimerStatusResult } from "./types";

/**
 * Remaining time and state of any timer at `now` (epoch ms). Pure: the same
 * input and `now` give the same result on every machine, in every time zone.
 * @example
 * const status = computeStatus({ definition, clock: emptyClock() }, Date.now());
 * status.remaining.total_seconds; // 0 once ended
 */
export function computeStatus(input: StatusInput, now: number): TimerStatusResult {
  const { definition } = input;
  // Passing the narrowed definition lets TypeScript check each handler's input.
  switch (definition.type) {
    case "fixed":
      return fixedStatus({ ...input, definition }, now);
    case "duration":
      return durationStatus({ ...input, definition }, now);
    case "recurring":
      return recurringStatus({ ...input, definition }, now);
    case "personalized":
      return personalizedStatus({ ...input, definition }, now);
  }
}
