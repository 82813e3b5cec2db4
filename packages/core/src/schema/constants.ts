/** The four kinds of timer; a timer's kind is fixed at creation. */
export const TIMER_TYPES = ["fixed", "duration", "recurring", "personalized"] as const;

/** One of {@link TIMER_TYPES}. */
export type TimerType = (typeof TIMER_TYPES)[number];

/** Lifecycle states of a timer: only published timers are rendered publicly. */
export const TIMER_STATUSES = ["draft", "published", "archived"] as const;

/** One of {@link TIMER_STATUSES}. */
export type TimerStatus = (typeof TIMER_STATUSES)[number];

/** Upper bound of a duration or personalized offset: 366 days, in seconds. */
export const MAX_DURATION_SECONDS = 31_622_400;

/** Default `timezone` of non-recurring timers, which only need it for display. */
export const DEFAULT_TIMEZONE = "Etc/UTC";
