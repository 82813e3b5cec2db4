/** What `purge` deletes: everything older than each cutoff (Unix ms). */
export interface PurgeInput {
  now: number;
  request_log_before: number;
  rate_windows_before: number;
  webhook_deliveries_before: number;
  /** Render counts of hours, and viewer sets of days, starting before this; absent: kept. */
  render_analytics_before?: number;
  /** Salts of UTC days starting before this (their hashes become unlinkable); absent: kept. */
  analytics_salts_before?: number;
  /**
   * Tracked viewers (per-recipient events) whose end has fired or will not, started before
   * this, and the daily caps' counters of days before it; absent: kept.
   */
  viewer_events_before?: number;
  /**
   * Sign-in attempt windows starting before this; absent: kept. Expired dashboard sessions
   * and expired or used password links (dead at `now`) are always deleted.
   */
  sign_in_attempts_before?: number;
}

/**
 * Counters that move whenever something a process may have cached changes: `auth` on a key's
 * revocation or roll and on an account's status or plan change, `timers` on every timer
 * change (update, delete, control action). Equal values mean nothing of that kind changed.
 */
export interface StoreGenerations {
  auth: number;
  timers: number;
  /** Moved by every deleted upload (`deleteAsset`): whoever keeps files by id asks again. */
  assets: number;
}

/** Service secrets and the purge of data past its retention. */
export interface HousekeepingStore {
  /**
   * The current generations. Cheap (one small read, or none when the adapter can tell that
   * nothing changed); a caller checks them once per batch of requests to keep caches exact
   * across processes.
   */
  readGenerations(): Promise<StoreGenerations>;
  /** Returns the named secret, creating it with `create()` once (atomic get-or-create). */
  getOrCreateSecret(name: string, create: () => string): Promise<string>;
  /**
   * Deletes idempotency records past expiry, request-log entries older than
   * `request_log_before`, rate windows older than `rate_windows_before`, and webhook
   * deliveries settled (succeeded or failed) before `webhook_deliveries_before` with their
   * attempts and the events no delivery needs any more. Pending deliveries are never purged.
   * Dashboard sessions expired at `now` and password links expired or used by then go too.
   * With the optional cutoffs: render analytics, analytics salts, settled tracked viewers and
   * sign-in attempt windows.
   * Works in bounded batches, so a large backlog never holds a lock for long.
   */
  purge(input: PurgeInput): Promise<void>;
}
