import type {
  Environment,
  GetInEnvironment,
  NewestFirstPage,
  RecordRef,
  TimerRecord,
} from "./common";
import type { NewWebhookEvent, WebhookEventType } from "./events";
import type { ViewerStartInput } from "./viewers";

/** A registered receiver of webhooks in one account and environment. */
export interface WebhookDestination {
  id: string;
  account_id: string;
  environment: Environment;
  url: string;
  description: string | null;
  /** Change events delivered for every timer of the environment, without a rule. */
  events: WebhookEventType[];
  enabled: boolean;
  /** Why the destination is disabled: `disabled` (by the user) or `gone` (it answered 410). */
  disabled_reason: string | null;
  /** The signing secret (`whsec_...`); kept in clear because signing needs it. */
  secret: string;
  /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  created_at: number;
  updated_at: number;
}

/** What a destination create inserts. */
export type NewWebhookDestination = Omit<
  WebhookDestination,
  "disabled_reason" | "previous_secret" | "previous_secret_expires_at" | "updated_at"
>;

/** The fields a destination update may change; absent ones are kept. */
export interface WebhookDestinationPatch {
  url?: string;
  description?: string | null;
  events?: WebhookEventType[];
  enabled?: boolean;
}

/** A rule: deliver some event types of one timer to one destination. */
export interface WebhookRule {
  id: string;
  account_id: string;
  environment: Environment;
  timer_id: string;
  destination_id: string;
  events: WebhookEventType[];
  /** `timer.threshold` fires this many seconds before the end; null without a threshold. */
  offset_seconds: number | null;
  created_at: number;
}

/** Result of the atomic rule create. */
export type CreateWebhookRuleOutcome =
  | { kind: "created"; rule: WebhookRule }
  | { kind: "timer_not_found" }
  | { kind: "destination_not_found" };

/** Delivery status: `pending` (an attempt is due or scheduled), then `succeeded` or `failed`. */
export type WebhookDeliveryStatus = "pending" | "succeeded" | "failed";

/** Why an attempt was made: by the retry schedule, or by a replay. */
export type WebhookAttemptTrigger = "scheduled" | "manual";

/** One recorded call to a destination (or the reason none was made). */
export interface WebhookAttempt {
  /** 1 for the first attempt of a delivery. */
  attempt: number;
  trigger: WebhookAttemptTrigger;
  started_at: number;
  duration_ms: number;
  /** The HTTP status answered, or null when there was no answer. */
  response_status: number | null;
  /** The first 1 KB of the response body. */
  response_body: string | null;
  /** Why the attempt failed without a usable answer (`timeout`, `connection_refused`, ...). */
  error: string | null;
}

/** The event a delivery carries, with the exact body that is sent. */
export interface WebhookEventRecord {
  id: string;
  type: WebhookEventType;
  timer_id: string;
  /** The JSON body, byte for byte as signed and sent. */
  payload: string;
  occurred_at: number;
}

/** One event to one destination, with every attempt. */
export interface WebhookDelivery {
  id: string;
  account_id: string;
  environment: Environment;
  event: WebhookEventRecord;
  destination_id: string;
  /** The rule that matched, or null when the destination's own `events` did. */
  rule_id: string | null;
  status: WebhookDeliveryStatus;
  attempts: WebhookAttempt[];
  /** When the next attempt is due while `pending`; null otherwise. */
  next_attempt_at: number | null;
  /** The delivery this one replays, or null. */
  replay_of: string | null;
  created_at: number;
  updated_at: number;
}

/** A page query over deliveries, newest first, optionally one status. */
export interface ListWebhookDeliveriesQuery extends NewestFirstPage {
  status?: WebhookDeliveryStatus;
}

/** Result of a replay: a new delivery of the same event to the same destination. */
export type ReplayWebhookDeliveryOutcome =
  | { kind: "replayed"; delivery: WebhookDelivery }
  | { kind: "not_found" }
  | { kind: "destination_unavailable"; reason: "deleted" | "disabled" };

/** A delivery leased to one worker for one attempt. */
export interface ClaimedDelivery {
  id: string;
  account_id: string;
  environment: Environment;
  /** The number this attempt will be recorded under. */
  attempt: number;
  trigger: WebhookAttemptTrigger;
  event: WebhookEventRecord;
  destination: {
    id: string;
    url: string;
    enabled: boolean;
    deleted: boolean;
    /** Secrets to sign with: the current one first, then the previous one while it is valid. */
    secrets: string[];
  };
  lease_until: number;
}

/** What the worker reports after an attempt; the store applies it only while the lease holds. */
export interface RecordAttemptInput {
  delivery_id: string;
  worker_id: string;
  attempt: WebhookAttempt;
  /** `retry` keeps the delivery pending until `next_attempt_at`. */
  outcome: "succeeded" | "retry" | "failed";
  next_attempt_at?: number;
  /** The destination answered 410 Gone: disable it (reason `gone`). */
  disable_destination?: boolean;
  now: number;
}

/** A rule with time-based events whose schedule is due: to fire, or to be recomputed. */
export interface DueTimeRule {
  rule: WebhookRule;
  /** The rule's timer, or null when it was deleted. */
  timer: TimerRecord | null;
  /** Every instant up to this one has fired (or was skipped); starts at the rule's creation. */
  fired_through: number;
  /** 0 when the schedule must be recomputed (the rule is new or its timer changed). */
  next_fire_at: number;
}

/**
 * Atomic advance of a time-based rule: fires `events` and moves the rule's markers, only if
 * nobody advanced it meanwhile (`expected_fired_through`) and the timer is still at the
 * revision the events were computed from. The fired marker and the deliveries commit together.
 */
export interface AdvanceTimeRuleInput {
  account_id: string;
  environment: Environment;
  rule_id: string;
  expected_fired_through: number;
  /** The timer revision the events were computed from; null when the timer is gone. */
  timer_revision: number | null;
  fired_through: number;
  /** The next instant to look at again; null when nothing can fire until the timer changes. */
  next_fire_at: number | null;
  events: NewWebhookEvent[];
  now: number;
}

/** A tracked viewer whose end check is due (`viewer.ended`). */
export interface DueViewerEnd
  extends Pick<
    ViewerStartInput,
    "timer_id" | "viewer" | "recipient" | "context" | "started_at" | "end_check_at"
  > {
  /** The live timer, or null when it was deleted. */
  timer: TimerRecord | null;
}

/**
 * Atomic advance of one viewer's end check: fires `ended` (to every rule of the timer that
 * subscribes to `viewer.ended` then, to its destination while live and enabled) and moves the
 * check to `next_check_at` (null: done), only if nobody advanced it meanwhile
 * (`expected_check_at`) and the timer is still at `timer_revision`.
 */
export interface AdvanceViewerEndInput {
  timer_id: string;
  viewer: string;
  expected_check_at: number;
  /** The timer revision the end was computed from; null when the timer is gone. */
  timer_revision: number | null;
  next_check_at: number | null;
  ended: NewWebhookEvent | null;
  now: number;
}

/** What the API reads and writes of webhooks: destinations, rules and deliveries. */
export interface WebhookStore {
  /**
   * Atomic: counts the live destinations of the account and environment and inserts the new
   * one only while fewer than `max_destinations` exist; otherwise throws `limit_reached`.
   */
  createWebhookDestination(input: {
    destination: NewWebhookDestination;
    max_destinations: number;
  }): Promise<WebhookDestination>;
  /** A keyset page of live destinations, newest first. */
  listWebhookDestinations(query: NewestFirstPage): Promise<WebhookDestination[]>;
  /** One live destination; null when absent or deleted. */
  getWebhookDestination: GetInEnvironment<WebhookDestination>;
  /** Applies a patch to a live destination; enabling clears `disabled_reason`. Null when absent. */
  updateWebhookDestination(
    input: RecordRef & {
      patch: WebhookDestinationPatch;
      now: number;
    },
  ): Promise<WebhookDestination | null>;
  /**
   * Soft-deletes a destination and deletes its rules, in one transaction; its pending
   * deliveries fail at their next attempt. False when there was no live destination.
   */
  deleteWebhookDestination(
    input: RecordRef & {
      now: number;
    },
  ): Promise<boolean>;
  /** Installs `secret`; the current one becomes the previous secret until `previous_expires_at`. */
  rotateWebhookSecret(
    input: RecordRef & {
      secret: string;
      previous_expires_at: number;
      now: number;
    },
  ): Promise<WebhookDestination | null>;
  /**
   * Atomic: checks that the timer and the destination are live in the rule's account and
   * environment, and that the timer has fewer than `max_rules_per_timer` rules, then inserts.
   * Too many rules throws `limit_reached`.
   */
  createWebhookRule(input: {
    rule: WebhookRule;
    max_rules_per_timer: number;
  }): Promise<CreateWebhookRuleOutcome>;
  /** A keyset page of one timer's rules, newest first. */
  listWebhookRules(query: NewestFirstPage & { timer_id: string }): Promise<WebhookRule[]>;
  /** Deletes a rule of a timer; false when there was none. */
  deleteWebhookRule(input: RecordRef & { timer_id: string }): Promise<boolean>;
  /** A keyset page of deliveries, newest first, optionally of one status. */
  listWebhookDeliveries(query: ListWebhookDeliveriesQuery): Promise<WebhookDelivery[]>;
  /** One delivery with its event and attempts; null when absent. */
  getWebhookDelivery: GetInEnvironment<WebhookDelivery>;
  /** Creates a new pending delivery of the same event to the same destination, due now. */
  replayWebhookDelivery(
    input: RecordRef & {
      new_id: string;
      now: number;
    },
  ): Promise<ReplayWebhookDeliveryOutcome>;
}

/**
 * What a webhook worker needs: leased claims of due deliveries, their attempts, and the
 * time-based rules. A worker process can be given a store typed as just this.
 */
export interface WebhookWorkerStore {
  /**
   * Atomic: leases up to `limit` due pending deliveries (due and not leased, or leased by a
   * lease that expired) to `worker_id` until `now + lease_ms`. Deliveries of a suspended
   * account are held: not claimed, still pending, until it is active again. Concurrent claims, from any
   * process, never return the same delivery while its lease holds. SQLite: one IMMEDIATE
   * transaction selects and leases (a single writer at a time). PostgreSQL: `SELECT ... FOR
   * UPDATE SKIP LOCKED` then the lease UPDATE in one transaction, so workers skip each other's
   * rows instead of waiting. `lease_ms` must exceed the longest attempt (the send timeout).
   */
  claimDueDeliveries(input: {
    now: number;
    lease_ms: number;
    limit: number;
    worker_id: string;
  }): Promise<ClaimedDelivery[]>;
  /**
   * Records an attempt and the delivery's next state, only while `worker_id` still holds the
   * lease for that attempt number; false (nothing written) when the lease was lost.
   */
  recordAttempt(input: RecordAttemptInput): Promise<boolean>;
  /** Rules with time-based events whose `next_fire_at` is at or before `now` (0 first). */
  listDueTimeRules(input: { now: number; limit: number }): Promise<DueTimeRule[]>;
  /** See {@link AdvanceTimeRuleInput}; false when someone else advanced it or the timer changed. */
  advanceTimeRule(input: AdvanceTimeRuleInput): Promise<boolean>;
  /** Tracked viewers whose end check is at or before `now`, oldest first. */
  listDueViewerEnds(input: { now: number; limit: number }): Promise<DueViewerEnd[]>;
  /** See {@link AdvanceViewerEndInput}; false when it was stale (nothing written). */
  advanceViewerEnd(input: AdvanceViewerEndInput): Promise<boolean>;
  /**
   * The outbox across every account, for metrics: pending deliveries and the earliest time one
   * of them is due (null when none is pending). Walks the index of pending rows only.
   */
  outboxStats(): Promise<OutboxStats>;
}

/** What `outboxStats` answers. */
export interface OutboxStats {
  /** Deliveries still pending (first attempts and retries, due or not). */
  pending: number;
  /** The earliest `next_attempt_at` of a pending delivery (Unix ms), or null. */
  oldest_due_at: number | null;
}
