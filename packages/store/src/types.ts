/**
 * The one persistence contract of tminus. Every adapter (SQLite, PostgreSQL, ...) implements
 * `Store` and passes the conformance suite in `test/store-suite.ts` unchanged.
 *
 * Rules every adapter keeps:
 * - All times are Unix milliseconds (numbers); the caller passes `now`, the store never reads
 *   a clock except for housekeeping it is told to do.
 * - Every query on tenant data is scoped by `account_id` AND `environment`.
 * - Operations documented as atomic are one transaction: concurrent calls behave as if they
 *   ran one after another.
 */

/** The two fully separated data environments. */
export type Environment = "sandbox" | "production";

/** Whether an account may use the API. */
export type AccountStatus = "active" | "suspended";

/** The lifecycle status of a timer. */
export type TimerStatus = "draft" | "published" | "archived";

/** The four timer types. */
export type TimerType = "fixed" | "duration" | "recurring" | "personalized";

/** An account owns keys, timers and usage in both environments. */
export interface Account {
  id: string;
  /** Unique, human-chosen name (CLI `--account`). */
  name: string;
  /** Plan name, a key of the operator's plan table (`starter`, `growth`, ...). */
  plan: string;
  status: AccountStatus;
  created_at: number;
}

/** An API key as stored: never the secret, only its SHA-256 hash. */
export interface ApiKeyRecord {
  id: string;
  account_id: string;
  environment: Environment;
  /** The non-secret start of the key shown in lists and logs, e.g. `svc_test_8f3k2`. */
  prefix: string;
  /** Lowercase hex SHA-256 of the full secret. */
  hash: string;
  /** Scopes granted; `["*"]` grants every route. */
  scopes: string[];
  created_at: number;
  revoked_at: number | null;
}

/** A timer row. `data` is opaque to the store: the http layer owns its shape. */
export interface TimerRecord {
  id: string;
  account_id: string;
  environment: Environment;
  name: string;
  type: TimerType;
  status: TimerStatus;
  /** Increases by one on every change; starts at 1. */
  revision: number;
  created_at: number;
  updated_at: number;
  published_at: number | null;
  /** Type-specific definition, look and clock state, stored as JSON. */
  data: Record<string, unknown>;
}

/** What a create inserts; the store sets `revision` to 1. */
export type NewTimer = Omit<TimerRecord, "revision">;

/** A response kept for idempotent replay: exactly what the first request answered. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Input of the atomic create (POST /timers and POST /timers/{id}/duplicate). */
export interface CreateTimerInput {
  timer: NewTimer;
  /** The new-timer allowance of the current cycle; the create reserves one unit. */
  allowance: { cycle_id: string; limit: number };
  /** When present, the key's record is written in the same transaction as the timer. */
  idempotency?: { key: string; fingerprint: string; expires_at: number };
  /** Builds the response to keep for replays, from the row as inserted. */
  respond: (timer: TimerRecord) => StoredResponse;
  /** The activity entry recording the creation, written in the same transaction. */
  activity?: ActivityEntry;
  /** Webhook events of the creation (`timer.created`), put in the outbox in the same transaction. */
  events?: NewWebhookEvent[];
  now: number;
}

/** Result of the atomic create. Nothing is written unless `kind` is `created`. */
export type CreateTimerOutcome =
  | { kind: "created"; timer: TimerRecord; response: StoredResponse }
  | { kind: "replayed"; response: StoredResponse }
  | { kind: "idempotency_conflict" }
  | { kind: "quota_exhausted"; used: number; limit: number };

/** Who made a change: the key (never its secret) and the request. */
export interface Actor {
  key_id: string | null;
  key_prefix: string | null;
  request_id: string | null;
}

/** One entry of a timer's activity log: a change or control action. */
export interface ActivityEntry extends Actor {
  id: string;
  timer_id: string;
  account_id: string;
  environment: Environment;
  /** `created`, `duplicated`, `updated`, `deleted`, `published`, `archived`, ... */
  action: string;
  /** The timer's revision after this change: orders one timer's activity totally. */
  revision: number;
  /** Fields before and after, e.g. `{ name: { before: "A", after: "B" } }`. */
  changes: Record<string, { before: unknown; after: unknown }>;
  created_at: number;
}

/** What a change does to a timer row; computed from the current row by the caller. */
export interface TimerChange {
  action: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  name?: string;
  status?: TimerStatus;
  published_at?: number | null;
  data?: Record<string, unknown>;
  /** Soft-deletes the timer: it disappears from get and list. */
  delete?: boolean;
  /**
   * Webhook events this change causes, put in the outbox in the same transaction: a change
   * that is refused or rolled back records none. Their payloads see the row as written.
   */
  events?: NewWebhookEvent[];
}

/** Input of the atomic change (PATCH, DELETE and every control action). */
export interface ChangeTimerInput {
  account_id: string;
  environment: Environment;
  id: string;
  /** The revision the client last read (If-Match); anything else is a conflict. */
  expected_revision: number;
  actor: Actor;
  activity_id: string;
  now: number;
  /**
   * Pure function of the current row. It may throw to refuse the change (nothing is written
   * and the error reaches the caller); it may run more than once.
   */
  change: (current: TimerRecord) => TimerChange;
}

/** Result of the atomic change. */
export type ChangeTimerOutcome =
  | { kind: "changed"; timer: TimerRecord; activity: ActivityEntry }
  | { kind: "not_found" }
  | { kind: "revision_conflict"; current: TimerRecord };

/** A page of one timer's activity, newest first (by revision). */
export interface ListActivityQuery {
  account_id: string;
  environment: Environment;
  timer_id: string;
  /** Strictly older than this revision. */
  before_revision?: number;
  limit: number;
}

/** Sort orders for timer lists; keyset paging runs over `(field, id)`. */
export interface TimerSort {
  field: "created_at" | "updated_at";
  direction: "asc" | "desc";
}

/** A page query over timers. The store returns at most `limit` rows after `after`. */
export interface ListTimersQuery {
  account_id: string;
  environment: Environment;
  type?: TimerType;
  /** Statuses to include (the http layer excludes `archived` unless asked). */
  statuses: TimerStatus[];
  sort: TimerSort;
  /** Position of the last row of the previous page: strictly after it in sort order. */
  after?: { value: number; id: string };
  limit: number;
}

/** One fixed-window bucket to count a request in. */
export interface RateBucket {
  /** e.g. `key:<key id>` or `account:<account id>:<environment>`. */
  bucket: string;
  limit: number;
}

/** Input of the atomic per-request counter. */
export interface CountRequestInput {
  buckets: RateBucket[];
  /** Start of the current fixed window (ms), the same for every bucket. */
  window_start: number;
  /** Usage counter to add one `api_requests` to when the request is allowed. */
  usage: { account_id: string; environment: Environment; cycle_id: string };
}

/** Counts after the call. When `allowed` is false nothing was incremented. */
export interface CountRequestResult {
  allowed: boolean;
  /** Count per bucket in the window, after the increment when allowed. */
  counts: Record<string, number>;
}

/** One line of the request log. */
export interface RequestLogEntry {
  id: string;
  account_id: string;
  environment: Environment;
  key_id: string;
  key_prefix: string;
  request_id: string;
  method: string;
  /** Route template, e.g. `/api/v1/timers/{timer_id}`. */
  route: string;
  status: number;
  error_code: string | null;
  duration_ms: number;
  created_at: number;
}

/**
 * A page query over the request log (GET /usage/requests), newest first: keyset paging over
 * `(created_at, id)` descending. Filters combine with AND.
 */
export interface ListRequestLogQuery {
  account_id: string;
  environment: Environment;
  status?: number;
  route?: string;
  key_id?: string;
  key_prefix?: string;
  request_id?: string;
  /** Position of the last row of the previous page: strictly older than it. */
  after?: { value: number; id: string };
  limit: number;
}

// Webhooks ---------------------------------------------------------------------------------

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

/** Every webhook event type. */
export const WEBHOOK_EVENT_TYPES = [...WEBHOOK_CHANGE_EVENTS, ...WEBHOOK_TIME_EVENTS] as const;

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

/** Keyset position of lists ordered newest first by `(created_at, id)`. */
export interface NewestFirstPage {
  account_id: string;
  environment: Environment;
  /** Position of the last row of the previous page: strictly older than it. */
  after?: { value: number; id: string };
  limit: number;
}

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

/** Metered metric names. */
export type UsageMetric = "new_timers" | "api_requests";

/** The async persistence and metering interface every adapter implements. */
export interface Store {
  /** Adapter name for logs and errors, e.g. `sqlite`. */
  readonly kind: string;

  // Accounts -------------------------------------------------------------------------------
  /** Creates an account; a duplicate name throws `StoreError` with code `conflict`. */
  createAccount(input: { id: string; name: string; plan: string; now: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  findAccountByName(name: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  /** Suspends or reactivates an account; null when it does not exist. */
  setAccountStatus(id: string, status: AccountStatus): Promise<Account | null>;
  /** Moves an account to another plan; null when it does not exist. */
  setAccountPlan(id: string, plan: string): Promise<Account | null>;

  // API keys -------------------------------------------------------------------------------
  /**
   * Atomic: counts the account's live keys in the environment and inserts the new one only
   * while fewer than `max_active_keys` exist; otherwise throws `StoreError` `limit_reached`.
   */
  createApiKey(input: {
    id: string;
    account_id: string;
    environment: Environment;
    prefix: string;
    hash: string;
    scopes: string[];
    max_active_keys: number;
    now: number;
  }): Promise<ApiKeyRecord>;
  /** The live (not revoked) key with this hash, and its account. */
  findApiKeyByHash(hash: string): Promise<{ key: ApiKeyRecord; account: Account } | null>;
  /** Keys of an account, newest first, revoked ones included. */
  listApiKeys(account_id: string, environment?: Environment): Promise<ApiKeyRecord[]>;
  /**
   * Revokes a live key by id or prefix (within the account when given) and returns it; null
   * when no live key matched. A prefix shared by several live keys throws `conflict`.
   */
  revokeApiKey(input: {
    id_or_prefix: string;
    account_id?: string;
    now: number;
  }): Promise<ApiKeyRecord | null>;

  // Metering -------------------------------------------------------------------------------
  /** Atomic: checks every bucket, then increments all of them and `api_requests`, or none. */
  countRequest(input: CountRequestInput): Promise<CountRequestResult>;
  /** Usage counters of one account, environment and cycle; missing metrics are 0. */
  getUsage(
    account_id: string,
    environment: Environment,
    cycle_id: string,
  ): Promise<Record<UsageMetric, number>>;

  // Timers ---------------------------------------------------------------------------------
  /**
   * Atomic: replays or rejects on a known idempotency key, else reserves one unit of the
   * allowance, inserts the timer and records the key with the response, in one transaction.
   */
  createTimer(input: CreateTimerInput): Promise<CreateTimerOutcome>;
  /** One timer of the account and environment; null when absent (or deleted). */
  getTimer(account_id: string, environment: Environment, id: string): Promise<TimerRecord | null>;
  /** Keyset page of timers: filters, then strict `(sort field, id)` order after `after`. */
  listTimers(query: ListTimersQuery): Promise<TimerRecord[]>;
  /**
   * Atomic: re-reads the live timer, refuses a stale `expected_revision`, applies `change`,
   * bumps the revision and writes the activity entry, in one transaction. A `delete` change
   * soft-deletes (the row disappears from get and list).
   */
  changeTimer(input: ChangeTimerInput): Promise<ChangeTimerOutcome>;
  /** A keyset page of one timer's activity, newest first. */
  listActivity(query: ListActivityQuery): Promise<ActivityEntry[]>;

  // Public render routes -------------------------------------------------------------------
  /**
   * A live timer by id alone, whatever its account: the public routes know only the URL.
   * Callers must still check that it is published before showing anything.
   */
  findTimerById(id: string): Promise<TimerRecord | null>;
  /**
   * Atomic insert-or-get: the first time `viewer` (a recipient id or a browser's cookie) saw
   * the timer. Returns the stored first-view instant, `now` on the first call.
   */
  recordFirstView(input: { timer_id: string; viewer: string; now: number }): Promise<number>;

  // Request log ----------------------------------------------------------------------------
  /** Appends request-log entries (one transaction for the batch). */
  logRequests(entries: RequestLogEntry[]): Promise<void>;
  /**
   * A keyset page of the request log, newest first, at most `limit` rows strictly after
   * `after` (GET /usage/requests).
   */
  listRequestLog(query: ListRequestLogQuery): Promise<RequestLogEntry[]>;

  // Webhooks -------------------------------------------------------------------------------
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
  getWebhookDestination(
    account_id: string,
    environment: Environment,
    id: string,
  ): Promise<WebhookDestination | null>;
  /** Applies a patch to a live destination; enabling clears `disabled_reason`. Null when absent. */
  updateWebhookDestination(input: {
    account_id: string;
    environment: Environment;
    id: string;
    patch: WebhookDestinationPatch;
    now: number;
  }): Promise<WebhookDestination | null>;
  /**
   * Soft-deletes a destination and deletes its rules, in one transaction; its pending
   * deliveries fail at their next attempt. False when there was no live destination.
   */
  deleteWebhookDestination(input: {
    account_id: string;
    environment: Environment;
    id: string;
    now: number;
  }): Promise<boolean>;
  /** Installs `secret`; the current one becomes the previous secret until `previous_expires_at`. */
  rotateWebhookSecret(input: {
    account_id: string;
    environment: Environment;
    id: string;
    secret: string;
    previous_expires_at: number;
    now: number;
  }): Promise<WebhookDestination | null>;
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
  deleteWebhookRule(input: {
    account_id: string;
    environment: Environment;
    timer_id: string;
    id: string;
  }): Promise<boolean>;
  /** A keyset page of deliveries, newest first, optionally of one status. */
  listWebhookDeliveries(query: ListWebhookDeliveriesQuery): Promise<WebhookDelivery[]>;
  /** One delivery with its event and attempts; null when absent. */
  getWebhookDelivery(
    account_id: string,
    environment: Environment,
    id: string,
  ): Promise<WebhookDelivery | null>;
  /** Creates a new pending delivery of the same event to the same destination, due now. */
  replayWebhookDelivery(input: {
    account_id: string;
    environment: Environment;
    id: string;
    new_id: string;
    now: number;
  }): Promise<ReplayWebhookDeliveryOutcome>;
  /**
   * Atomic: leases up to `limit` due pending deliveries (due and not leased, or leased by a
   * lease that expired) to `worker_id` until `now + lease_ms`. Concurrent claims, from any
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

  // Service secrets and housekeeping -------------------------------------------------------
  /** Returns the named secret, creating it with `create()` once (atomic get-or-create). */
  getOrCreateSecret(name: string, create: () => string): Promise<string>;
  /** Deletes idempotency records past expiry, request-log entries older than
   * `request_log_before` and rate windows older than `rate_windows_before`. */
  purge(input: {
    now: number;
    request_log_before: number;
    rate_windows_before: number;
  }): Promise<void>;
  /** Releases the connection; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** Codes of errors a store throws on purpose (anything else is a fault). */
export type StoreErrorCode = "conflict" | "limit_reached" | "not_found";

/** An expected failure of a store operation. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string) {
    super(message);
    this.name = "StoreError";
    this.code = code;
  }
}
