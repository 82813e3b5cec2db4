import { createRequire } from "node:module";
import type { Store } from "@tminus/store";
import type { WebhookAttemptReport } from "@tminus/webhooks";
import type { Registry } from "prom-client";
import { instrumentStore, StoreStats } from "./instrument-store";
import { RequestStats } from "./request-stats";
import { collectedMetric } from "./series";
import { createTracing } from "./tracing";

/** Options of `createMetrics`. */
export interface MetricsOptions {
  /** Register into this prom-client registry (default: a new one, so nothing is global). */
  registry?: Registry;
  /** Node.js process metrics (CPU, memory, event-loop lag, GC, handles); default true. */
  processMetrics?: boolean;
}

/** The render and image figures one handler reports when scraped. */
export interface RenderFigures {
  /** The pool's counters, or null before the pool started (or with inline rendering). */
  pool: {
    threads: number;
    busy: number;
    queued: number;
    maxQueue: number;
    refused: number;
    restarts: number;
  } | null;
  /** Images drawn for requests, by kind. */
  rendered: { gif: number; png: number };
  /**
   * Image requests answered with a still because the pool was full: drawn (`misses`), kept
   * (`hits`) or shared with one in flight (`coalesced`); `inline` of those drawn were drawn on
   * the event loop because the still lane was full too.
   */
  stills: {
    inline: number;
    /** Requests answered with a still because their image waited past `render.max_wait_ms`. */
    late: number;
    hits: number;
    coalesced: number;
    misses: number;
  };
  /** Hosted pages and embeds answered `503 overloaded` (event loop too slow). */
  shed: number;
  cache: { hits: number; coalesced: number; misses: number; bytes: number; entries: number };
  /**
   * The memory budget (`render.memory_mb`) in MB and how it is shared (`total`, `process`,
   * `render_threads`, `still_thread`, `image_cache`, `still_cache`, `headroom`); null without one.
   */
  budget?: Record<string, number> | null;
}

/**
 * One in-memory cache of a handler as the metrics see it: a fixed name (never request input),
 * its entries now, and its bytes when they are known: those it holds when it is bounded in bytes,
 * or the fixed size of one whose memory is allocated at creation.
 */
export interface CacheFigure {
  cache: string;
  entries: number;
  bytes?: number;
}

/** What a handler hands its metrics: read at scrape time, never on the request's path. */
export interface HandlerFigures {
  render(): RenderFigures;
  ready(): Promise<boolean>;
  /** Its bounded caches (docs/configuration.md, "Caches and memory"). */
  caches?(): CacheFigure[];
}

/**
 * Prometheus metrics of tminus, in a prom-client `Registry`. Give it to `createHandler({
 * metrics })` and expose `registry` where you like (never on the public port, ideally).
 * `tminus serve --metrics-port 9464` does that on a listener of its own. docs/operations.md
 * lists every metric.
 */
export interface TminusMetrics {
  /** The registry every tminus metric is in. */
  readonly registry: Registry;
  /** The exposition format's content type, for the `/metrics` response. */
  readonly contentType: string;
  /** The exposition text (what `/metrics` answers). */
  metrics(): Promise<string>;
  /** Counts one webhook attempt: pass it as `onAttempt` to `createWebhookWorker`. */
  webhookAttempt(report: WebhookAttemptReport): void;
  /**
   * The store with its calls timed, and its pool and outbox reported. `createHandler` does this
   * itself; call it to share one timed store between the handler and a webhook worker.
   */
  instrumentStore<S extends Store>(store: S): S;
}

/** The handler's side of the metrics: not public API. */
export interface MetricsInternals {
  requests: RequestStats;
  storeStats: StoreStats;
  attach(figures: HandlerFigures): void;
}

const INTERNALS = new WeakMap<TminusMetrics, MetricsInternals>();

/** The handler's access to a `TminusMetrics` made by `createMetrics`. */
export function metricsInternals(metrics: TminusMetrics): MetricsInternals {
  const internals = INTERNALS.get(metrics);
  if (!internals) throw new Error("metrics must come from createMetrics()");
  return internals;
}

/** How long a scrape waits for a store figure (the outbox) before it leaves it out. */
const SCRAPE_STORE_TIMEOUT_MS = 1000;

/**
 * Creates the metrics of tminus in a registry of their own (or `registry`): requests by route
 * template, method and status and their durations; the render pool; the image cache; the
 * webhook outbox and attempts; store operation durations and the PostgreSQL pool; readiness;
 * process metrics. Requests are counted in plain numbers and turned into samples only when
 * scraped, so counting costs a request no allocation.
 * @example
 * const metrics = createMetrics();
 * const handler = createHandler({ store, metrics });
 * app.get("/metrics", async (_req, res) => res.type(metrics.contentType).send(await metrics.metrics()));
 */
export function createMetrics(options: MetricsOptions = {}): TminusMetrics {
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = loadPromClient();
  const registry = options.registry ?? new Registry();
  const registers = [registry];
  const requests = new RequestStats();
  const storeStats = new StoreStats();
  const handlers: HandlerFigures[] = [];
  const stores = new Set<Store>();

  const add = (metric: ReturnType<typeof collectedMetric>) =>
    registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0]);
  add(
    collectedMetric(
      "tminus_http_requests_total",
      "Requests answered, by route template, method and status.",
      "counter",
      () => requests.countSamples(),
    ),
  );
  add(
    collectedMetric(
      "tminus_http_request_duration_seconds",
      "Time from a request's arrival to its response, by route template and method.",
      "histogram",
      () => requests.durationSamples("tminus_http_request_duration_seconds"),
    ),
  );
  add(
    collectedMetric(
      "tminus_store_operation_duration_seconds",
      "Duration of store calls, by operation (the Store method).",
      "histogram",
      () => storeStats.durationSamples("tminus_store_operation_duration_seconds"),
    ),
  );
  add(
    collectedMetric(
      "tminus_store_errors_total",
      "Store calls that failed, by operation.",
      "counter",
      () => storeStats.errorSamples(),
    ),
  );

  const figures = () => handlers.map((h) => h.render());
  const sum = (pick: (f: RenderFigures) => number) =>
    figures().reduce((total, f) => total + pick(f), 0);
  const poolSum = (pick: (p: NonNullable<RenderFigures["pool"]>) => number) =>
    sum((f) => (f.pool ? pick(f.pool) : 0));

  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  const counter = (
    name: string,
    help: string,
    label: string | null,
    read: () => Record<string, number> | number,
  ) =>
    add(
      collectedMetric(name, help, "counter", () => {
        const value = read();
        if (typeof value === "number") return [{ labels: {}, value }];
        return Object.entries(value).map(([v, n]) => ({ labels: { [label!]: v }, value: n }));
      }),
    );

  gauge("tminus_render_threads", "Render threads in the pool.", () => poolSum((p) => p.threads));
  gauge("tminus_render_threads_busy", "Render threads drawing now.", () => poolSum((p) => p.busy));
  gauge("tminus_render_queue_depth", "Images waiting for a render thread.", () =>
    poolSum((p) => p.queued),
  );
  gauge("tminus_render_queue_limit", "How many images may wait before renders are refused.", () =>
    poolSum((p) => p.maxQueue),
  );
  counter("tminus_render_images_total", "Images drawn for requests, by kind.", "kind", () => ({
    gif: sum((f) => f.rendered.gif),
    png: sum((f) => f.rendered.png),
  }));
  counter("tminus_render_refusals_total", "Renders refused because the queue was full.", null, () =>
    poolSum((p) => p.refused),
  );
  counter(
    "tminus_render_thread_restarts_total",
    "Render threads that stopped unexpectedly and were replaced.",
    null,
    () => poolSum((p) => p.restarts),
  );
  counter(
    "tminus_image_stills_total",
    "Image requests answered with a still (one frame) because the render pool was full: drawn, kept, or shared with one in flight.",
    "result",
    () => ({
      drawn: sum((f) => f.stills.misses),
      kept: sum((f) => f.stills.hits),
      shared: sum((f) => f.stills.coalesced),
    }),
  );
  counter(
    "tminus_image_stills_inline_total",
    "Stills drawn on the event loop because the still lane's queue was full too.",
    null,
    () => sum((f) => f.stills.inline),
  );
  counter(
    "tminus_image_stills_late_total",
    "Image requests answered with a still because their image waited in the queue past render.max_wait_ms.",
    null,
    () => sum((f) => f.stills.late),
  );
  counter(
    "tminus_public_pages_shed_total",
    "Hosted pages and embeds answered 503 overloaded because the event loop was too slow.",
    null,
    () => sum((f) => f.shed),
  );
  counter(
    "tminus_image_cache_requests_total",
    "Image lookups in the in-memory cache: kept (hit), joined a running render (coalesced), rendered (miss).",
    "result",
    () => ({
      hit: sum((f) => f.cache.hits),
      coalesced: sum((f) => f.cache.coalesced),
      miss: sum((f) => f.cache.misses),
    }),
  );
  gauge("tminus_image_cache_bytes", "Bytes of rendered images kept in memory.", () =>
    sum((f) => f.cache.bytes),
  );
  gauge("tminus_image_cache_entries", "Rendered images kept in memory.", () =>
    sum((f) => f.cache.entries),
  );
  add(
    collectedMetric(
      "tminus_memory_budget_bytes",
      "The memory budget (render.memory_mb, part total) and each part's share of it; absent without a budget.",
      "gauge",
      () => {
        const totals = new Map<string, number>();
        for (const f of figures())
          for (const [part, mb] of Object.entries(f.budget ?? {}))
            totals.set(part, (totals.get(part) ?? 0) + mb * 1024 * 1024);
        return [...totals].map(([part, value]) => ({ labels: { part }, value }));
      },
    ),
  );
  // Every bounded cache of the handlers, by its fixed name: a gauge that climbs to its bound
  // and stays there is a cache too small for the load; one that never stops is a leak.
  const cacheSamples = (pick: (c: CacheFigure) => number | undefined) => {
    const totals = new Map<string, number>();
    for (const h of handlers) {
      for (const c of h.caches?.() ?? []) {
        const value = pick(c);
        if (value !== undefined) totals.set(c.cache, (totals.get(c.cache) ?? 0) + value);
      }
    }
    return [...totals].map(([cache, value]) => ({ labels: { cache }, value }));
  };
  add(
    collectedMetric(
      "tminus_cache_entries",
      "Entries kept in each bounded in-memory cache of the handler, by cache.",
      "gauge",
      () => cacheSamples((c) => c.entries),
    ),
  );
  add(
    collectedMetric(
      "tminus_cache_bytes",
      "Bytes kept in each in-memory cache bounded in bytes or allocated at its bound, by cache.",
      "gauge",
      () => cacheSamples((c) => c.bytes),
    ),
  );

  new Gauge({
    name: "tminus_ready",
    help: "1 when the readiness check passes (the store answers with the current schema), else 0.",
    registers,
    async collect() {
      if (handlers.length === 0) return;
      const all = await Promise.all(handlers.map((h) => h.ready()));
      this.set(all.every(Boolean) ? 1 : 0);
    },
  });

  new Gauge({
    name: "tminus_store_pool_connections",
    help: "PostgreSQL pool connections, by state.",
    labelNames: ["state"],
    registers,
    collect() {
      let inUse = 0;
      let idle = 0;
      for (const store of stores) {
        const s = store.poolStats?.();
        if (s) {
          inUse += s.total - s.idle;
          idle += s.idle;
        }
      }
      this.set({ state: "in_use" }, inUse);
      this.set({ state: "idle" }, idle);
    },
  });
  gauge("tminus_store_pool_waiting", "Callers waiting for a PostgreSQL connection.", () => {
    let waiting = 0;
    for (const store of stores) waiting += store.poolStats?.()?.waiting ?? 0;
    return waiting;
  });

  const outbox = async () => {
    let pending = 0;
    let oldest: number | null = null;
    for (const store of stores) {
      const s = await withDeadline(store.outboxStats(), SCRAPE_STORE_TIMEOUT_MS);
      pending += s.pending;
      if (s.oldest_due_at !== null) oldest = Math.min(oldest ?? Infinity, s.oldest_due_at);
    }
    return { pending, oldest };
  };
  let outboxRead: Promise<{ pending: number; oldest: number | null } | null> | undefined;
  // Both outbox gauges come from one query per scrape.
  const outboxOnce = () => {
    outboxRead ??= outbox()
      .catch(() => null)
      .finally(() => setTimeout(() => (outboxRead = undefined), 0));
    return outboxRead;
  };
  new Gauge({
    name: "tminus_webhook_outbox_pending",
    help: "Webhook deliveries pending (due now or waiting for a retry), every account.",
    registers,
    async collect() {
      const s = await outboxOnce();
      if (s) this.set(s.pending);
    },
  });
  new Gauge({
    name: "tminus_webhook_outbox_oldest_due_age_seconds",
    help: "How long the most overdue pending delivery has been due (0 when none is overdue).",
    registers,
    async collect() {
      const s = await outboxOnce();
      if (s) this.set(s.oldest === null ? 0 : Math.max(0, (Date.now() - s.oldest) / 1000));
    },
  });
  const attempts = new Counter({
    name: "tminus_webhook_attempts_total",
    help: "Webhook delivery attempts, by outcome: succeeded, retry (failed, will retry), failed (given up).",
    labelNames: ["outcome"],
    registers,
  });
  const attemptDuration = new Histogram({
    name: "tminus_webhook_attempt_duration_seconds",
    help: "Duration of webhook delivery attempts (the receiver's answer, or the timeout).",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  for (const outcome of ["succeeded", "retry", "failed"]) attempts.labels(outcome).inc(0);

  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const metrics: TminusMetrics = {
    registry,
    get contentType() {
      return registry.contentType;
    },
    metrics: () => registry.metrics(),
    webhookAttempt(report) {
      attempts.labels(report.outcome).inc();
      attemptDuration.observe(report.duration_ms / 1000);
    },
    instrumentStore(store) {
      const timed = instrumentStore(store, { stats: storeStats, tracing: createTracing() });
      stores.add(timed);
      return timed;
    },
  };
  INTERNALS.set(metrics, {
    requests,
    storeStats,
    attach(figures) {
      handlers.push(figures);
    },
  });
  return metrics;
}

/**
 * prom-client, loaded on the first `createMetrics()`: it takes a good 100 ms to load, which
 * every process importing @tminus/http (the CLI's key commands, a serverless cold start)
 * would otherwise pay whether or not it keeps metrics. `require` from this module's URL (tsup
 * shims it in the CJS build) resolves it where @tminus/http is installed.
 */
function loadPromClient(): typeof import("prom-client") {
  return createRequire(import.meta.url)("prom-client");
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
