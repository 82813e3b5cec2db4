import {
  createHousekeepingJob,
  type Logger,
  type TminusConfig,
  type TminusMetrics,
} from "@tminus/http";
import type { Store } from "@tminus/store";
import { createWebhookWorker } from "@tminus/webhooks";
import { workerReports } from "./worker-reports";

/** Options of `startWorker`. */
export interface StartWorkerOptions {
  store: Store;
  config: TminusConfig;
  /** Time between retention purges in ms (default one hour). */
  housekeepingIntervalMs?: number;
  /** Attempt lines and faults. Default: faults to console.error. */
  logger?: Logger;
  /** Counts attempts and times the store (`createMetrics()`); expose its registry yourself. */
  metrics?: TminusMetrics;
}

/** A running worker process's jobs. */
export interface RunningWorker {
  /** Stops polling, finishes and records attempts in flight, waits for a running purge, closes the store. */
  close(): Promise<void>;
}

/**
 * What `tminus worker` runs: the webhook delivery worker (time-based events, the outbox) and
 * the retention purge on a timer, without HTTP. Any number may run on one database; each
 * delivery attempt is leased to one worker, and the purge is idempotent.
 */
export function startWorker(options: StartWorkerOptions): RunningWorker {
  const { config, logger } = options;
  const metrics = options.metrics ?? null;
  const store = metrics ? metrics.instrumentStore(options.store) : options.store;
  const worker = createWebhookWorker({ store, config, ...workerReports(logger, metrics) });
  const housekeeping = createHousekeepingJob({
    store,
    config,
    intervalMs: options.housekeepingIntervalMs,
    ...(logger
      ? {
          onError: (error: unknown) =>
            logger.error({ err: error, event: "housekeeping_fault" }, "purge failed"),
        }
      : {}),
  });
  worker.start();
  housekeeping.start();
  return {
    async close() {
      await worker.stop();
      await housekeeping.stop();
      await store.close();
    },
  };
}
