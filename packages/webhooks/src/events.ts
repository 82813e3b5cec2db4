import { formatInstant, timerData, timerView } from "@tminus/core";
import type { NewWebhookEvent, TimerRecord, WebhookEventType } from "@tminus/store";
import { uuidv7 } from "@tminus/store";

/** Extra top-level fields of time-based events. */
export interface TimeEventFields {
  /** The end this event is about: the deadline, or a recurring timer's occurrence. */
  target_at: number;
  /** `timer.threshold` only: how long before `target_at` it fires. */
  offset_seconds?: number;
}

/** The `viewer` object of per-recipient events: who, and that viewer's own countdown. */
export interface ViewerEventFields {
  /** The recipient id of the URL (`r`), or null when the viewer was told apart by its deadline. */
  recipient_id: string | null;
  /** When this viewer's countdown started: the first view, or the URL's start. */
  started_at: number;
  /** When this viewer's countdown ends (reaches zero); null while it has no end (paused). */
  ends_at: number | null;
}

/**
 * The JSON body of an event (Standard Webhooks shape): `type`, `timestamp` (when it happened)
 * and `data`, the timer exactly as the API returns it (public URLs on `baseUrl`). Time-based
 * events add `target_at` (and `offset_seconds` for thresholds).
 */
export function eventPayload(
  type: WebhookEventType,
  timer: TimerRecord,
  at: number,
  baseUrl: string | undefined,
  time?: TimeEventFields,
  viewer?: ViewerEventFields,
): Record<string, unknown> {
  return {
    type,
    timestamp: formatInstant(at),
    data: timerView(timer, baseUrl),
    ...(viewer
      ? {
          viewer: {
            recipient_id: viewer.recipient_id,
            started_at: formatInstant(viewer.started_at),
            ends_at: viewer.ends_at === null ? null : formatInstant(viewer.ends_at),
          },
        }
      : {}),
    ...(time
      ? {
          target_at: formatInstant(time.target_at),
          ...(time.offset_seconds === undefined ? {} : { offset_seconds: time.offset_seconds }),
        }
      : {}),
  };
}

/**
 * An outbox event for a change or control action at `now`. The store builds the payload from
 * the row as written, so `data` shows the timer after the change (its new revision included).
 */
export function changeEvent(type: WebhookEventType, now: number, baseUrl: string): NewWebhookEvent {
  return {
    id: uuidv7(now),
    type,
    occurred_at: now,
    payload: (timer) => eventPayload(type, timer, now, baseUrl),
  };
}

/**
 * A per-recipient event (`viewer.started` at the first view, `viewer.ended` at that viewer's
 * end) about `at`. The payload is built from the timer row as the store reads it when queueing.
 */
export function viewerEvent(
  type: "viewer.started" | "viewer.ended",
  at: number,
  baseUrl: string | null,
  viewer: ViewerEventFields,
): NewWebhookEvent {
  return {
    id: uuidv7(at),
    type,
    occurred_at: at,
    // No request for viewer.ended: the configured base URL, else the timer's own.
    payload: (timer) =>
      eventPayload(type, timer, at, baseUrl ?? timerData(timer).origin, undefined, viewer),
  };
}
