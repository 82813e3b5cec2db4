import { formatInstant } from "@tminus/core";
import type { WebhookDelivery, WebhookDestination, WebhookRule } from "@tminus/store";

/**
 * A destination as the API shows it: never a secret, except the new one in the answers of
 * create and rotate-secret (`withSecret`).
 */
export function destinationView(
  d: WebhookDestination,
  now: number,
  withSecret = false,
): Record<string, unknown> {
  const rotating =
    d.previous_secret !== null && d.previous_secret_expires_at !== null
      ? d.previous_secret_expires_at > now
      : false;
  return {
    id: d.id,
    object: "webhook_destination",
    url: d.url,
    description: d.description,
    events: d.events,
    enabled: d.enabled,
    disabled_reason: d.disabled_reason,
    ...(withSecret ? { secret: d.secret } : {}),
    previous_secret_expires_at: rotating ? formatInstant(d.previous_secret_expires_at!) : null,
    created_at: formatInstant(d.created_at),
    updated_at: formatInstant(d.updated_at),
  };
}

/** A rule as the API shows it. */
export function ruleView(rule: WebhookRule): Record<string, unknown> {
  return {
    id: rule.id,
    object: "webhook_rule",
    timer_id: rule.timer_id,
    destination_id: rule.destination_id,
    events: rule.events,
    offset_seconds: rule.offset_seconds,
    created_at: formatInstant(rule.created_at),
  };
}

/** A delivery as the API shows it: the event with its payload, the status and every attempt. */
export function deliveryView(d: WebhookDelivery): Record<string, unknown> {
  return {
    id: d.id,
    object: "webhook_delivery",
    event: {
      id: d.event.id,
      type: d.event.type,
      timer_id: d.event.timer_id,
      occurred_at: formatInstant(d.event.occurred_at),
      payload: JSON.parse(d.event.payload),
    },
    destination_id: d.destination_id,
    rule_id: d.rule_id,
    status: d.status,
    attempt_count: d.attempts.length,
    next_retry_at: d.next_attempt_at === null ? null : formatInstant(d.next_attempt_at),
    replay_of: d.replay_of,
    attempts: d.attempts.map((a) => ({
      attempt: a.attempt,
      trigger: a.trigger,
      started_at: formatInstant(a.started_at),
      duration_ms: a.duration_ms,
      response_status: a.response_status,
      response_body: a.response_body,
      error: a.error,
    })),
    created_at: formatInstant(d.created_at),
    updated_at: formatInstant(d.updated_at),
  };
}
