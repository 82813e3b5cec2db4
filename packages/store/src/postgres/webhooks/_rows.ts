import type {
  Environment,
  WebhookAttempt,
  WebhookAttemptTrigger,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookDestination,
  WebhookEventType,
  WebhookRule,
} from "../../contract";
import { ms, msOrNull } from "../_sql";

// Column lists and row mappers of the webhook tables, shared by every module that reads them.

type Bigint = string | number;

/** Columns of `webhook_destinations` as read into `DestinationRow`. */
export const DESTINATION_COLUMNS =
  "id, account_id, environment, url, description, events, enabled, disabled_reason, secret, previous_secret, previous_secret_expires_at, created_at, updated_at";

/** Columns of `webhook_rules` as read into `RuleRow`. */
export const RULE_COLUMNS =
  "id, account_id, environment, timer_id, destination_id, events, offset_seconds, created_at";

/**
 * Columns of a delivery joined with its event (`d` and `e`), with its attempts aggregated as a
 * JSON array, as read into `DeliveryRow`: a page and its attempts in one round trip.
 */
export const DELIVERY_COLUMNS = `d.id, d.account_id, d.environment, d.destination_id, d.rule_id,
  d.status, d.next_attempt_at, d.replay_of, d.created_at, d.updated_at,
  e.id AS event_id, e.type AS event_type, e.timer_id AS event_timer_id,
  e.payload AS event_payload, e.occurred_at AS event_occurred_at,
  (SELECT coalesce(json_agg(json_build_object(
      'attempt', a.attempt, 'trigger', a.attempt_trigger, 'started_at', a.started_at,
      'duration_ms', a.duration_ms, 'response_status', a.response_status,
      'response_body', a.response_body, 'error', a.error) ORDER BY a.attempt), '[]')
   FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts`;

/** A `webhook_destinations` row. */
export interface DestinationRow
  extends Omit<WebhookDestination, "previous_secret_expires_at" | "created_at" | "updated_at"> {
  previous_secret_expires_at: Bigint | null;
  created_at: Bigint;
  updated_at: Bigint;
}

/** A `webhook_rules` row. */
export interface RuleRow extends Omit<WebhookRule, "created_at"> {
  created_at: Bigint;
}

/** A delivery joined with its event and attempts. */
export interface DeliveryRow {
  id: string;
  account_id: string;
  environment: Environment;
  destination_id: string;
  rule_id: string | null;
  status: WebhookDeliveryStatus;
  next_attempt_at: Bigint | null;
  replay_of: string | null;
  created_at: Bigint;
  updated_at: Bigint;
  event_id: string;
  event_type: WebhookEventType;
  event_timer_id: string;
  event_payload: string;
  event_occurred_at: Bigint;
  /** json_agg writes bigint as JSON numbers: already numbers here. */
  attempts: (Omit<WebhookAttempt, "trigger"> & { trigger: WebhookAttemptTrigger })[];
}

/** `webhook_destinations` row to record. */
export function toDestination(row: DestinationRow): WebhookDestination {
  return {
    ...row,
    previous_secret_expires_at: msOrNull(row.previous_secret_expires_at),
    created_at: ms(row.created_at),
    updated_at: ms(row.updated_at),
  };
}

/** `webhook_rules` row to record, field by field: schedule columns read beside it stay out. */
export function toRule(row: RuleRow): WebhookRule {
  return {
    id: row.id,
    account_id: row.account_id,
    environment: row.environment,
    timer_id: row.timer_id,
    destination_id: row.destination_id,
    events: row.events,
    offset_seconds: row.offset_seconds,
    created_at: ms(row.created_at),
  };
}

/** A delivery row (with event and attempts) to record. */
export function toDelivery(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    account_id: r.account_id,
    environment: r.environment,
    event: {
      id: r.event_id,
      type: r.event_type,
      timer_id: r.event_timer_id,
      payload: r.event_payload,
      occurred_at: ms(r.event_occurred_at),
    },
    destination_id: r.destination_id,
    rule_id: r.rule_id,
    status: r.status,
    attempts: r.attempts,
    next_attempt_at: r.status === "pending" ? msOrNull(r.next_attempt_at) : null,
    replay_of: r.replay_of,
    created_at: ms(r.created_at),
    updated_at: ms(r.updated_at),
  };
}
