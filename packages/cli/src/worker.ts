import { createHousekeepingJob, type TminusConfig } from "@tminus/http";
import type { Store } from "@tminus/store";
import { createWebhookWorker } from "@tminus/webhooks";

/** Options of `startWorker`. */
export interface StartWorkerOptions {
  store: Store;
  config: TminusConfig;
  /** Time between retention purges in ms (default one hour). */
  housekeepingIntervalMs?: number;
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
  const { store, config } = options;
  const worker = createWebhookWorker({ store, config });
  const housekeeping = createHousekeepingJob({
    store,
    config,
    intervalMs: options.housekeepingIntervalMs,
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
