import { randomUUID } from "node:crypto";
import type { ClaimedDelivery, WebhookWorkerStore } from "@tminus/store";
import { deliverOne, type WebhookAttemptReport } from "./deliver";
import { oneAtATime, type PeriodicJob } from "./periodic-job";
import type { HostResolver } from "./resolve";
import { runSchedulerPass } from "./scheduler";
import { resolveWebhookConfig, type WebhookConfig } from "./settings";
import { runViewerEndPass } from "./viewer-ends";

/**
 * The parts of the operator's config a worker reads. A resolved `TminusConfig` of
 * `@tminus/http`, or the parsed JSON of `tminus serve --config`, fits as it is.
 */
export interface WebhookWorkerConfig {
  /**
   * The public base URL the timers' `urls` in time-based event payloads are built on. Without
   * it, each timer's own: the base URL of the request that created it.
   */
  base_url?: string | null;
  /** Delivery settings (timeouts, retries, the SSRF check); defaults for what is absent. */
  webhooks?: Partial<WebhookConfig>;
}

/** Options of `createWebhookWorker`. */
export interface WebhookWorkerOptions {
  /** The store the API writes its outbox to; several workers may share it. */
  store: WebhookWorkerStore;
  /** The operator's config; `webhooks.*` decides timeouts, retries and the SSRF check. */
  config?: WebhookWorkerConfig;
  /** Clock in Unix ms; tests pass a fake one. Default `Date.now`. */
  now?: () => number;
  /** This worker's id in leases; unique per process by default. */
  workerId?: string;
  /** How often to look for due deliveries and time-based events, in ms (default 500). */
  pollIntervalMs?: number;
  /** Attempts in flight at once (default 8). */
  concurrency?: number;
  /**
   * Waits before each retry in ms, overriding `config.webhooks.retry_delays_seconds`. For
   * tests and development: the documented schedule is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
   */
  retryDelaysMs?: readonly number[];
  /** Name resolution for destinations (tests); the system resolver by default. */
  resolver?: HostResolver;
  /** Receives unexpected faults; default console.error. */
  onError?: (error: unknown) => void;
  /**
   * Hears each recorded attempt: for metrics (`TminusMetrics.webhookAttempt` of @tminus/http)
   * and logs. Called after the attempt is written; must not throw.
   */
  onAttempt?: (report: WebhookAttemptReport) => void;
}

/**
 * A running delivery worker: `start` polls, `stop` also waits for attempts in flight to be
 * recorded, and `runOnce` is one pass (fire due time-based events, claim and send due
 * deliveries), awaited to the end.
 */
export type WebhookWorker = PeriodicJob;

/**
 * The webhook delivery worker: fires time-based events and recipients' `viewer.ended` when they
 * come due, and sends queued
 * deliveries, signed, with retries. Runs inside `tminus serve`; a library user can run it in
 * its own process, as many as they like on one store: each attempt is leased to one worker
 * (`claimDueDeliveries`), so no attempt is sent twice while its lease holds.
 * @example
 * const worker = createWebhookWorker({ store: sqliteStore({ path: "tminus.db" }) });
 * worker.start();
 * process.on("SIGTERM", () => worker.stop());
 */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const settings = resolveWebhookConfig(options.config?.webhooks);
  const baseUrl = options.config?.base_url?.replace(/\/+$/, "") ?? null;
  const { store } = options;
  const now = options.now ?? Date.now;
  const pollMs = options.pollIntervalMs ?? 500;
  const concurrency = options.concurrency ?? 8;
  const onError =
    options.onError ?? ((error: unknown) => console.error("[tminus] webhook worker", error));
  const context = {
    store,
    workerId: options.workerId ?? `worker-${randomUUID()}`,
    now,
    timeoutMs: settings.timeout_ms,
    allowPrivate: settings.allow_private_destinations,
    retryDelaysMs: options.retryDelaysMs ?? settings.retry_delays_seconds.map((s) => s * 1000),
    resolver: options.resolver,
    onAttempt: options.onAttempt,
  };
  // The lease outlives the longest attempt (the timeout) with a margin for recording it; a
  // worker that dies mid-attempt leaves its deliveries to others once the lease expires.
  const leaseMs = settings.timeout_ms + settings.lease_margin_ms;

  const inFlight = new Set<Promise<void>>();
  let interval: ReturnType<typeof setInterval> | undefined;
  let again = false;

  const send = (claimed: ClaimedDelivery) => {
    const job: Promise<void> = deliverOne(claimed, context)
      .then(() => undefined, onError)
      .finally(() => {
        inFlight.delete(job);
        // A full claim may have left due deliveries behind: take the next one now.
        if (again && interval) tick();
      });
    inFlight.add(job);
  };

  const pass = async () => {
    await runSchedulerPass(store, now(), baseUrl);
    await runViewerEndPass(store, now(), baseUrl);
    const free = concurrency - inFlight.size;
    if (free <= 0) return;
    const claimed = await store.claimDueDeliveries({
      now: now(),
      lease_ms: leaseMs,
      limit: free,
      worker_id: context.workerId,
    });
    again = claimed.length === free;
    for (const c of claimed) send(c);
  };

  const passes = oneAtATime(pass, onError);
  const tick = passes.run;

  return {
    start() {
      if (interval) return;
      interval = setInterval(tick, pollMs);
      tick();
    },
    async stop() {
      if (interval) clearInterval(interval);
      interval = undefined;
      await passes.settled();
      await Promise.all([...inFlight]);
    },
    async runOnce() {
      await tick();
      await Promise.all([...inFlight]);
    },
  };
}
