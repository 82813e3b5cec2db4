import type { Store } from "@tminus/store";
import { oneAtATime, type PeriodicJob } from "@tminus/webhooks";
import { analyticsConfig, type TminusConfig } from "./config";

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

/** The first UTC day whose render analytics are still kept at `now` (whole days). */
export function analyticsCutoff(config: TminusConfig, now: number): number {
  return now - (now % DAY_MS) - analyticsConfig(config).retention_days * DAY_MS;
}

/**
 * Deletes, once, everything past its retention at `now`: request-log entries older than
 * `request_log_retention_days`, expired idempotency records, dead rate windows, webhook
 * deliveries settled more than `webhooks.delivery_retention_days` ago (and settled tracked
 * viewers as old), render analytics of days past `analytics.retention_days`, every
 * analytics salt but today's and yesterday's, expired dashboard sessions, expired or used
 * set-password links, and sign-in attempt counts older than a day. Idempotent: processes sharing a database may run
 * it at once.
 */
export function purgeExpired(store: Store, config: TminusConfig, now: number): Promise<void> {
  const webhooksBefore = now - config.webhooks.delivery_retention_days * DAY_MS;
  return store.purge({
    now,
    request_log_before: requestLogCutoff(config, now),
    rate_windows_before: now - (now % 60_000) - RATE_WINDOW_KEEP_MS,
    webhook_deliveries_before: webhooksBefore,
    render_analytics_before: analyticsCutoff(config, now),
    analytics_salts_before: now - (now % DAY_MS) - DAY_MS,
    viewer_events_before: webhooksBefore,
    // Far older than any sign-in window (15 minutes): a window still counting is never cut.
    sign_in_attempts_before: now - DAY_MS,
  });
}

/**
 * Runs `purgeExpired` after responses, at most once an hour per handler. The purge is
 * scheduled with `setImmediate`, after the response has been handed to the transport, so no
 * request ever waits for it. Several processes sharing a database each purge; the deletes are
 * idempotent, so that costs a little work and nothing else. A deployment that runs
 * `createHousekeepingJob` in a worker process turns this off (`housekeeping: false`).
 */
export function createHousekeeping(
  store: Store,
  config: TminusConfig,
  onError: (error: unknown, requestId: string) => void,
  /** Writes what is still in memory first (the request log), so the purge sees it all. */
  beforePurge: () => Promise<void> = async () => {},
): Housekeeping {
  let lastRun = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;

  return {
    afterResponse(now) {
      // abs(): a clock set backwards (tests, a corrected host clock) must not stall purging.
      if (running || Math.abs(now - lastRun) < HOUR_MS) return;
      lastRun = now;
      running = new Promise<void>((resolve) => setImmediate(resolve))
        .then(beforePurge)
        .then(() => purgeExpired(store, config, now))
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

/** Options of `createHousekeepingJob`. */
export interface HousekeepingJobOptions {
  store: Store;
  config: TminusConfig;
  /** Time between purges in ms (default one hour). */
  intervalMs?: number;
  /** Clock in Unix ms; default `Date.now`. */
  now?: () => number;
  /** Receives a failed purge (the next one runs on schedule); default console.error. */
  onError?: (error: unknown) => void;
}

/**
 * The retention purge on a timer, for a process that serves no requests: `start` purges now,
 * then every `intervalMs`; `stop` waits for a running purge.
 */
export type HousekeepingJob = PeriodicJob;

/**
 * The purge of `purgeExpired` as a scheduled job: what `tminus worker` runs, so that API
 * processes started with `housekeeping: false` never purge and one kind of process owns it.
 * The timer is unref'd: it never keeps a process alive on its own.
 * @example
 * const job = createHousekeepingJob({ store, config: resolveConfig(input) });
 * job.start();
 * process.once("SIGTERM", () => job.stop());
 */
export function createHousekeepingJob(options: HousekeepingJobOptions): HousekeepingJob {
  const { store, config } = options;
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? HOUR_MS;
  const onError =
    options.onError ?? ((error: unknown) => console.error("[tminus] housekeeping", error));
  let timer: ReturnType<typeof setInterval> | undefined;
  // One purge at a time: a slow one is never stacked on.
  const purges = oneAtATime(() => purgeExpired(store, config, now()), onError);

  return {
    start() {
      if (timer) return;
      timer = setInterval(purges.run, intervalMs);
      timer.unref?.();
      void purges.run();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await purges.settled();
    },
    runOnce: purges.run,
  };
}
