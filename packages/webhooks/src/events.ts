import { formatInstant, timerView } from "@tminus/core";
import type { NewWebhookEvent, TimerRecord, WebhookEventType } from "@tminus/store";
import { uuidv7 } from "@tminus/store";

/** Extra top-level fields of time-based events. */
export interface TimeEventFields {
  /** The end this event is about: the deadline, or a recurring timer's occurrence. */
  target_at: number;
  /** `timer.threshold` only: how long before `target_at` it fires. */
  offset_seconds?: number;
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
): Record<string, unknown> {
  return {
    type,
    timestamp: formatInstant(at),
    data: timerView(timer, baseUrl),
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
