import type {
  Environment,
  WebhookAttempt,
  WebhookAttemptTrigger,
  WebhookDeliveryStatus,
  WebhookDestination,
  WebhookEventType,
  WebhookRule,
} from "../../contract";

// Column lists and row mappers of the webhook tables, shared by every module that reads them.

/** Columns of `webhook_destinations` as read into `DestinationRow`. */
export const DESTINATION_COLUMNS =
  "id, account_id, environment, url, description, events, enabled, disabled_reason, secret, previous_secret, previous_secret_expires_at, created_at, updated_at";

/** Columns of `webhook_rules` as read into `RuleRow`. */
export const RULE_COLUMNS =
  "id, account_id, environment, timer_id, destination_id, events, offset_seconds, created_at";

/** Columns of a delivery joined with its event (`d` and `e`), as read into `DeliveryRow`. */
export const DELIVERY_COLUMNS = `d.id, d.account_id, d.environment, d.destination_id, d.rule_id,
  d.status, d.next_attempt_at, d.replay_of, d.created_at, d.updated_at,
  e.id AS event_id, e.type AS event_type, e.timer_id AS event_timer_id,
  e.payload AS event_payload, e.occurred_at AS event_occurred_at`;

/** Columns of `webhook_attempts` as read into `AttemptRow`. */
export const ATTEMPT_COLUMNS =
  "delivery_id, attempt, attempt_trigger, started_at, duration_ms, response_status, response_body, error";

/** A `webhook_destinations` row: events JSON text, enabled 0/1. */
export interface DestinationRow extends Omit<WebhookDestination, "events" | "enabled"> {
  events: string;
  enabled: number;
}

/** A `webhook_rules` row: events JSON text. */
export interface RuleRow extends Omit<WebhookRule, "events"> {
  events: string;
}

/** A delivery joined with its event. */
export interface DeliveryRow {
  id: string;
  account_id: string;
  environment: Environment;
  destination_id: string;
  rule_id: string | null;
  status: WebhookDeliveryStatus;
  next_attempt_at: number | null;
  replay_of: string | null;
  created_at: number;
  updated_at: number;
  event_id: string;
  event_type: WebhookEventType;
  event_timer_id: string;
  event_payload: string;
  event_occurred_at: number;
}

/** A `webhook_attempts` row. */
export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  attempt_trigger: WebhookAttemptTrigger;
  started_at: number;
  duration_ms: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}

/** `webhook_destinations` row to record. */
export function toDestination(row: DestinationRow): WebhookDestination {
  return {
    ...row,
    events: JSON.parse(row.events) as WebhookEventType[],
    enabled: row.enabled === 1,
  };
}

/** `webhook_rules` row to record. */
export function toRule(row: RuleRow): WebhookRule {
  // Field by field: schedule columns read beside a rule stay out of the record.
  return {
    id: row.id,
    account_id: row.account_id,
    environment: row.environment,
    timer_id: row.timer_id,
    destination_id: row.destination_id,
    events: JSON.parse(row.events) as WebhookEventType[],
    offset_seconds: row.offset_seconds,
    created_at: row.created_at,
  };
}

/** `webhook_attempts` row to record. */
export function toAttempt(row: AttemptRow): WebhookAttempt {
  return {
    attempt: row.attempt,
    trigger: row.attempt_trigger,
    started_at: row.started_at,
    duration_ms: row.duration_ms,
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.error,
  };
}
