import type { Store } from "@tminus/store";
import type { TminusConfig } from "./config";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
// Rate windows are one minute long; a window that ended two minutes ago can no longer answer
// any request, even from a process whose clock runs a little behind.
const RATE_WINDOW_KEEP_MS = 2 * 60_000;

/** Opportunistic deletion of data past its retention window. */
export interface Housekeeping {
  /** Called after every response; starts a purge when the last one is an hour old. */
  afterResponse(now: number): void;
  /** Resolves when a running purge has finished (call before closing the store). */
  close(): Promise<void>;
}

/** The oldest request-log instant still inside the retention window at `now`. */
export function requestLogCutoff(config: TminusConfig, now: number): number {
  return now - config.request_log_retention_days * DAY_MS;
}

/**
 * Purges request-log entries older than `request_log_retention_days`, expired idempotency
 * records and dead rate windows, at most once an hour per handler. The purge is scheduled
 * with `setImmediate`, after the response has been handed to the transport, so no request
 * ever waits for it. Several processes sharing a database each purge; the deletes are
 * idempotent, so that costs a little work and nothing else.
 */
export function createHousekeeping(
  store: Store,
  config: TminusConfig,
  onError: (error: unknown, requestId: string) => void,
): Housekeeping {
  let lastRun = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;

  return {
    afterResponse(now) {
      // abs(): a clock set backwards (tests, a corrected host clock) must not stall purging.
      if (running || Math.abs(now - lastRun) < HOUR_MS) return;
      lastRun = now;
      running = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() =>
          store.purge({
            now,
            request_log_before: requestLogCutoff(config, now),
            rate_windows_before: now - (now % 60_000) - RATE_WINDOW_KEEP_MS,
          }),
        )
        .catch((error: unknown) => onError(error, "housekeeping"))
        .finally(() => {
          running = null;
        });
    },
    async close() {
      await running;
    },
  };
}
