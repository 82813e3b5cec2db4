import type { Environment } from "./common";

/** Metered metric names. */
export type UsageMetric = "new_timers" | "api_requests";

/** A fixed-window bucket to take request units from, and how many are wanted. */
export interface RateReservation {
  /** e.g. `key:<key id>` or `account:<account id>:<environment>`. */
  bucket: string;
  /** Units the window allows in all. */
  limit: number;
  /** Units wanted now; fewer (down to 0) are granted when the window has less room. */
  want: number;
}

/** Input of the atomic reservation: the same window for every bucket. */
export interface ReserveRequestsInput {
  /** Start of the current fixed window (ms). */
  window_start: number;
  buckets: RateReservation[];
}

/** What one bucket granted, and its count in the window afterwards. */
export interface RateGrant {
  bucket: string;
  /** `min(want, limit - count before)`, never below 0; the count grew by exactly this. */
  granted: number;
  /** Units handed out in the window so far, all processes together. */
  count: number;
}

/** Units of a usage metric to add to a cycle's counter. */
export interface UsageIncrement {
  account_id: string;
  environment: Environment;
  cycle_id: string;
  metric: UsageMetric;
  amount: number;
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
  /**
   * Only entries written at this instant (Unix ms). A request id that carries its own time (a
   * UUIDv7, as the handler makes them) tells it: the lookup then walks one instant of the
   * account's log instead of all of it.
   */
  created_at?: number;
  /** Position of the last row of the previous page: strictly older than it. */
  after?: { value: number; id: string };
  limit: number;
}

/** Rate windows, usage counters and the request log. */
export interface MeteringStore {
  /**
   * Atomic: takes up to `want` units from each bucket's window (each bucket on its own: the
   * grant is `min(want, limit - count)`, never below 0) and returns what was granted and the
   * count afterwards. Concurrent reservations, from any process, never hand out more than
   * `limit` units of one window in all. Callers hold granted units in memory and admit
   * requests from them; units left unused when the window ends are lost (never over-admits).
   */
  reserveRequests(input: ReserveRequestsInput): Promise<RateGrant[]>;
  /** Adds usage counts in one transaction (counts kept in memory and written in batches). */
  addUsage(increments: UsageIncrement[]): Promise<void>;
  /** Usage counters of one account, environment and cycle; missing metrics are 0. */
  getUsage(
    account_id: string,
    environment: Environment,
    cycle_id: string,
  ): Promise<Record<UsageMetric, number>>;

  // Request log
  /** Appends request-log entries (one transaction for the batch). */
  logRequests(entries: RequestLogEntry[]): Promise<void>;
  /**
   * A keyset page of the request log, newest first, at most `limit` rows strictly after
   * `after` (GET /usage/requests).
   */
  listRequestLog(query: ListRequestLogQuery): Promise<RequestLogEntry[]>;
  /**
   * Request-log entries per UTC day (`day` is the day's first millisecond) from `since`
   * (inclusive) to `until` (exclusive), oldest first; days without requests are left out.
   * The dashboard's chart; bounded by the log's retention.
   */
  countRequestsByDay(query: {
    account_id: string;
    environment: Environment;
    since: number;
    until: number;
  }): Promise<{ day: number; count: number }[]>;
}
