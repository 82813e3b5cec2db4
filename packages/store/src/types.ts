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

  // Request log ----------------------------------------------------------------------------
  /** Appends request-log entries (one transaction for the batch). */
  logRequests(entries: RequestLogEntry[]): Promise<void>;
  /**
   * A keyset page of the request log, newest first, at most `limit` rows strictly after
   * `after` (GET /usage/requests).
   */
  listRequestLog(query: ListRequestLogQuery): Promise<RequestLogEntry[]>;

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
