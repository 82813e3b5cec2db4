import type { TimerDefinition } from "../schema/timer";

/** Per-timer clock state the store keeps; control actions (pause, extend, reset) change it. */
export interface TimerClock {
  /** When the timer was first published; a duration timer's default start. */
  published_at: number | null;
  /** When the current pause began, or null while running. */
  paused_at: number | null;
  /** Total length of all finished pauses; moves the target later. */
  paused_ms: number;
  /** Sum of all `extend` actions; moves the target later. */
  extended_seconds: number;
  /** A duration timer's own start after `reset`; overrides published_at. */
  started_at: number | null;
}

/** What is known about the viewer asking: their own start or deadline. */
export interface ViewerContext {
  /** A duration or personalized timer's start for this viewer (first view, or from the URL). */
  start_at?: number;
  /** A personalized timer's deadline from this viewer's URL. */
  deadline_at?: number;
}

/** Everything a status depends on besides `now`. */
export interface StatusInput<D extends TimerDefinition = TimerDefinition> {
  definition: D;
  clock: TimerClock;
  viewer?: ViewerContext;
}

/** Remaining time as whole seconds and as parts; `total_seconds` 0 means ended. */
export interface RemainingTime {
  total_seconds: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Where a timer stands at one instant. */
export type TimerState = "not_started" | "running" | "paused" | "ended";

/** The status of a timer at `now`, as GET /timers/{id}/status reports it. */
export interface TimerStatusResult {
  remaining: RemainingTime;
  ended: boolean;
  state: TimerState;
  /**
   * The instant the countdown reaches zero if nothing changes from now on (a
   * paused timer's target moves with the pause), or null when there is none.
   */
  target_at: number | null;
  /**
   * Recurring timers only: the occurrence this status is about (the one counted
   * down to, the one whose ended hold is showing, or the last one once no more
   * remain), or null when the rule has none. Shifted by pauses and extensions like target_at.
   */
  occurrence_at?: number | null;
  /** Recurring timers only: the first occurrence after now, or null when none remain. */
  next_occurrence_at?: number | null;
  /** Recurring timers only: true when no occurrence remains after now (ended for good once any hold is over). */
  final?: boolean;
  /**
   * Personalized timers only: where the deadline came from: the viewer's URL,
   * the timer's fallback_deadline_at, or nowhere (then the timer shows as ended).
   */
  deadline_source?: "viewer" | "fallback" | "none";
}
