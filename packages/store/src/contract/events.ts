import type { TimerRecord } from "./common";

/** Event types sent for changes and control actions (each in the same transaction as it). */
export const WEBHOOK_CHANGE_EVENTS = [
  "timer.created",
  "timer.updated",
  "timer.deleted",
  "timer.published",
  "timer.archived",
  "timer.restored",
  "timer.paused",
  "timer.resumed",
  "timer.extended",
  "timer.reset",
] as const;

/** Event types that fire at an instant (the end, or `offset_seconds` before it). */
export const WEBHOOK_TIME_EVENTS = ["timer.ended", "timer.threshold"] as const;

/**
 * Per-recipient events: one viewer's first view (`viewer.started`) and the end of that viewer's
 * own countdown (`viewer.ended`). Opt-in per rule only; never through a destination's `events`.
 */
export const WEBHOOK_VIEWER_EVENTS = ["viewer.started", "viewer.ended"] as const;

/** Every webhook event type. */
export const WEBHOOK_EVENT_TYPES = [
  ...WEBHOOK_CHANGE_EVENTS,
  ...WEBHOOK_TIME_EVENTS,
  ...WEBHOOK_VIEWER_EVENTS,
] as const;

/** One webhook event type, e.g. `timer.ended`. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * An event to put in the outbox. `payload` is called inside the transaction with the timer
 * row as written (after the change), so the body sent is exactly the state that committed.
 */
export interface NewWebhookEvent {
  /** Stable id: the `webhook-id` header of every attempt and replay. */
  id: string;
  type: WebhookEventType;
  /** When the event happened (the change, or the instant a time-based event is about). */
  occurred_at: number;
  /**
   * The JSON payload for the row as written; serialised once and sent byte for byte. Pure: a
   * transaction that is retried calls it again.
   */
  payload: (timer: TimerRecord) => unknown;
}
