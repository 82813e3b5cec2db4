import type { Actor, Environment, TimerRecord, TimerStatus, TimerType } from "./common";
import type { NewWebhookEvent } from "./events";

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
  /**
   * Builds the response to keep for replays, from the row as inserted. Pure: never called for a
   * replay, but an adapter may call it for a create that is then refused (the allowance is
   * spent) or again when it retries the transaction.
   */
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
  /**
   * Only timers whose name contains this text, compared case-insensitively for ASCII letters
   * (other characters as written).
   */
  name_contains?: string;
  /** Statuses to include (the http layer excludes `archived` unless asked). */
  statuses: TimerStatus[];
  sort: TimerSort;
  /** Position of the last row of the previous page: strictly after it in sort order. */
  after?: { value: number; id: string };
  limit: number;
}

/** Timers, their changes under optimistic concurrency, and their activity log. */
export interface TimerStore {
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
}
