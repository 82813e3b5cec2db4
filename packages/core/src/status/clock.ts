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
