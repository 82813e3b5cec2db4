import { randomBytes } from "node:crypto";
import type { Logger, RequestLogLine } from "@tminus/observability";
import {
  createTracing,
  instrumentStore,
  metricsInternals,
  type SpanLike,
  type TminusMetrics,
} from "@tminus/observability";
import type { Store } from "@tminus/store";
import { uuidv7 } from "@tminus/store";
import { API_PREFIX, type RouteContext, type Services } from "./api/context";
import { cachesConfig, resolveConfig, type TminusConfig, type TminusConfigInput } from "./config";
import { createCursorCodec } from "./cursor";
import { ApiError } from "./errors";
import { createRateLimiter } from "./guards/rate-limit";
import { createReadCache } from "./guards/read-cache";
import { createUsageMeter } from "./guards/usage-meter";
import { createHousekeeping } from "./housekeeping";
import { apiMount, KEY_EXPIRES_HEADER, UNMATCHED_ROUTE } from "./mounts/api";
import { openApiMount } from "./mounts/openapi";
import { probesMount } from "./mounts/probes";
import { publicMount, RENDER_UNAVAILABLE } from "./mounts/public";
import { createHealth, type HealthOptions } from "./observability/health";
import { normaliseBasePath, withinBasePath } from "./pipeline/base-path";
import { createRoutePipeline } from "./pipeline/invoke-route";
import type {
  Mount,
  MountContext,
  MountFactory,
  MountHost,
  RequestOutcome,
} from "./pipeline/mount";
import { stamp, toErrorResponse, withoutBodyForHead } from "./pipeline/respond";
import { createPublicRoutes } from "./public/routes";
import { createRequestLog, type RequestLog } from "./request-log";
import { allowedHostsCheck } from "./transport/allowed-hosts";
import { requestBaseUrl } from "./transport/base-url";
import type { ApiRequest, ApiResponse } from "./transport/exchange";

/** Options of `createHandler`. */
export interface HandlerOptions {
  /** Where everything is persisted (e.g. `sqliteStore({ path })`). */
  store: Store;
  /** Plan limits and settings; defaults are those of decisions.md. */
  config?: TminusConfigInput | TminusConfig;
  /** Clock in Unix milliseconds; tests pass a fake one. Default `Date.now`. */
  now?: () => number;
  /** Receives unexpected faults (the client only sees `internal_error`). Default console.error. */
  onError?: (error: unknown, requestId: string) => void;
  /**
   * Honour `Forwarded` / `X-Forwarded-Proto`, `-Host` and `-Prefix` when building absolute URLs
   * (behind a proxy you run). Default: the config's `trust_proxy`, off unless set: anyone can
   * send those headers.
   */
  trustProxy?: boolean;
  /**
   * The hosts this handler answers for when it builds URLs from the request (no `base_url`):
   * names (`timers.example.com`, any port), `name:port`, `[IPv6]`, or `.example.com` for a
   * domain and every name under it. A request for another host (its `Host`, or with
   * `trustProxy` the forwarded host) gets 400 `validation_error` instead of URLs on that host.
   * The probes answer whatever the host. Default: the config's `allowed_hosts`, else every
   * host (a library cannot know its own names: give them, or set `base_url`).
   */
  allowedHosts?: readonly string[];
  /**
   * The path the handler is mounted under when the framework passes it the full path (Next.js
   * route handlers, a bare `node:http` server behind a path router): taken off incoming paths
   * and put in front of every URL the handler builds. Frameworks that take the mount path off
   * themselves (Express, Connect) need nothing.
   */
  basePath?: string;
  /**
   * Purge data past its retention after responses, at most hourly (default true). False when
   * another process owns the purge (`createHousekeepingJob`, run by `tminus worker`).
   */
  housekeeping?: boolean;
  /**
   * The liveness (`/healthz`) and readiness (`/readyz`) probes, under the handler's mount
   * like every other path: other paths, or `false` to answer neither. Never metered, never
   * rate limited, no key.
   */
  health?: HealthOptions | false;
  /**
   * Prometheus metrics (`createMetrics()`): requests, durations, the render pool, the image
   * cache, the store and the outbox. Expose `metrics.registry` where you like.
   */
  metrics?: TminusMetrics;
  /**
   * Structured logs: one line per request (request id, route template, status, duration,
   * account id; never the query string, a key or a secret) and unexpected faults. A pino
   * logger fits. Default: no request lines, faults to console.error.
   */
  logger?: Logger;
  /**
   * More kinds of request beside the API, asked after the probes, the OpenAPI document and the
   * public pages and before `/api/v1`: e.g. `dashboard()` from `@tminus/dashboard`. Each gets
   * the API's own request pipeline for in-process calls.
   */
  mounts?: readonly MountFactory[];
}

export type { RouteContext, Services };
export { API_PREFIX, KEY_EXPIRES_HEADER, RENDER_UNAVAILABLE, toErrorResponse };

/** The transport-neutral core: `ApiRequest` in, `ApiResponse` out. Never throws. */
export type Dispatch = ((req: ApiRequest) => Promise<ApiResponse>) & {
  /** Whether the handler answers this path (with its `basePath`); others go to the app. */
  handles(path: string): boolean;
};

/**
 * Builds the dispatcher shared by the Fetch and `node:http` front ends: a list of mounts
 * (probes, OpenAPI document, public pages, the given ones, the API), asked in order.
 */
export function createDispatch(
  options: HandlerOptions,
): Dispatch & { close(): Promise<void>; prepare(): Promise<void>; drain(): void } {
  const config = resolveConfig(options.config);
  const now = options.now ?? Date.now;
  const logger = options.logger ?? null;
  const onError =
    options.onError ??
    (logger
      ? (error: unknown, requestId: string) =>
          logger.error({ err: error, request_id: requestId }, "internal error")
      : (error: unknown, requestId: string) =>
          console.error(`[tminus] internal error (request ${requestId})`, error));
  const tracing = createTracing();
  const metrics = options.metrics ? metricsInternals(options.metrics) : null;
  // Every store call timed and traced when asked for; the same store otherwise.
  const store = options.metrics
    ? options.metrics.instrumentStore(options.store)
    : instrumentStore(options.store, { tracing });
  const bounds = cachesConfig(config);
  const cache = createReadCache(store, { maxKeys: bounds.api_keys, maxTimers: bounds.timers });
  const usage = createUsageMeter(store, onError);
  const trustProxy = options.trustProxy ?? config.trust_proxy;
  const allowedHosts = options.allowedHosts ?? config.allowed_hosts;
  // With a configured base_url no URL comes from the request, so any Host is harmless.
  const hostAllowed =
    config.base_url === null && allowedHosts !== null ? allowedHostsCheck(allowedHosts) : null;
  const publicRoutes = createPublicRoutes({ store, config, cache, trustProxy, onError });
  const requestLog: RequestLog = createRequestLog(store, onError, {
    onDropped: (entries) =>
      logger
        ? logger.warn({ event: "request_log_dropped", entries }, "request log entries dropped")
        : console.error(`[tminus] ${entries} request log entries dropped: the store fell behind`),
  });
  const housekeeping =
    options.housekeeping === false
      ? null
      : createHousekeeping(store, config, onError, async () => {
          await Promise.all([requestLog.flush(), publicRoutes.flushViews()]);
        });

  // The cursor secret lives in the store so cursors survive restarts and work across
  // processes sharing one database.
  let services: Promise<Services> | undefined;
  const getServices = (): Promise<Services> => {
    services ??= store
      .getOrCreateSecret("cursor-hmac", () => randomBytes(32).toString("base64url"))
      .then((secret: string) => ({
        store,
        config,
        cursors: createCursorCodec(secret),
        cache,
        flushRequestLog: () => requestLog.flush(),
        flushUsage: () => usage.flush(),
        flushViews: () => publicRoutes.flushViews(),
      }));
    return services;
  };
  const limiter = createRateLimiter(store);
  const pipeline = createRoutePipeline({
    config,
    cache,
    limiter,
    usage,
    requestLog,
    services: getServices,
  });

  const health = createHealth(store, options.health, (readiness) => {
    if (readiness.ready) logger?.info({ event: "ready" }, "ready: the store answers");
    else
      logger?.warn(
        { event: "not_ready", reason: readiness.reason, err: readiness.cause },
        `not ready: ${readiness.reason}`,
      );
  });
  metrics?.attach({
    render: () => publicRoutes.figures(),
    ready: () => health.check().then((r) => r.ready),
    caches: () => {
      const read = cache.sizes();
      return [
        { cache: "api_keys", entries: read.keys },
        { cache: "timers", entries: read.timers },
        { cache: "assets", entries: read.assets },
        { cache: "rate_limit_buckets", entries: limiter.size },
        ...publicRoutes.caches(),
      ];
    },
  });

  const host: MountHost = {
    store,
    config,
    invokeRoute: pipeline.invokeRoute,
    renderImage: (kind, input) => publicRoutes.render(kind, input),
    lookFont: async (scope, look, text) => {
      const font = await publicRoutes.lookFont(scope, look, text);
      return font && { id: font.id, data: font.data };
    },
    onError,
    services: getServices,
  };
  const api = apiMount({
    invokeRoute: pipeline.invokeRoute,
    templateOf: pipeline.templateOf,
    onError,
    labels: metrics !== null || logger !== null,
    afterResponse: (at) => housekeeping?.afterResponse(at),
  });
  const probes = probesMount(health);
  const mounts: Mount[] = [
    probes,
    openApiMount(onError),
    publicMount(publicRoutes, onError),
    ...(options.mounts ?? []).map((factory) => factory(host)),
    api,
  ];

  const basePath = normaliseBasePath(options.basePath);
  const ownPath = (path: string) => mounts.some((mount) => mount.handles(path));
  const handles = (path: string) => {
    if (basePath === "") return ownPath(path);
    return (
      (path === basePath || path.startsWith(`${basePath}/`)) &&
      ownPath(path.slice(basePath.length) || "/")
    );
  };

  const answer = async (incoming: ApiRequest, context: MountContext): Promise<ApiResponse> => {
    const req = withinBasePath(incoming, basePath);
    if (req === null) {
      const error = new ApiError("not_found", `no route for ${incoming.method} ${incoming.path}`);
      return stamp(toErrorResponse(error, context.requestId, onError), context.requestId);
    }
    context.baseUrl = requestBaseUrl(req, { configured: config.base_url, trustProxy });
    if (hostAllowed !== null && !probes.handles(req.path)) {
      const host = new URL(context.baseUrl).host;
      if (!hostAllowed(host)) {
        const error = new ApiError(
          "validation_error",
          `this service does not answer for the host "${host}": it is not one of its allowed hosts`,
          { details: { field: "Host" } },
        );
        return stamp(toErrorResponse(error, context.requestId, onError), context.requestId);
      }
    }
    for (const mount of mounts) {
      if (!mount.handles(req.path)) continue;
      let response: ApiResponse | null;
      try {
        response = await mount.handle(req, context);
      } catch (error) {
        // A mount's fault: the envelope (its ApiError's code, else internal_error), no stack.
        response = toErrorResponse(error, context.requestId, onError);
      }
      if (response) return stamp(withoutBodyForHead(req, response), context.requestId);
    }
    // No mount took it: the API answers (not_found), as for any unknown path.
    const response = (await api.handle(req, context))!;
    return stamp(withoutBodyForHead(req, response), context.requestId);
  };

  /** The request's line in the log, its counts in the metrics. */
  const observe = (req: ApiRequest, response: ApiResponse, context: MountContext) => {
    const { outcome, requestId } = context;
    const seconds = (performance.now() - context.started) / 1000;
    metrics?.requests.record(outcome.route, req.method, response.status, seconds);
    if (logger) {
      const line: RequestLogLine = {
        request_id: requestId,
        method: req.method,
        route: outcome.route,
        status: response.status,
        duration_ms: Math.round(seconds * 1e6) / 1000,
      };
      if (outcome.auth) {
        line.account_id = outcome.auth.account.id;
        line.environment = outcome.auth.key.environment;
      }
      if (logger.requestLine) logger.requestLine(line);
      else logger.info(line, "request");
    }
  };

  const dispatch = async (incoming: ApiRequest): Promise<ApiResponse> => {
    const started = performance.now();
    const at = now();
    const outcome: RequestOutcome = { route: UNMATCHED_ROUTE, auth: undefined };
    const context: MountContext = { now: at, requestId: uuidv7(at), baseUrl: "", started, outcome };
    const span = tracing?.start("tminus request", "server") ?? null;
    const response = span
      ? await tracing!.within(span, () => answer(incoming, context))
      : await answer(incoming, context);
    if (span) endRequestSpan(span, incoming, response, context.requestId, outcome.route);
    if (metrics || logger) observe(incoming, response, context);
    return response;
  };

  const close = async () => {
    health.drain();
    await Promise.all([requestLog.flush(), usage.flush()]);
    await housekeeping?.close();
    await Promise.all(mounts.map((mount) => mount.close?.()));
  };
  return Object.assign(dispatch, {
    close,
    handles,
    prepare: () => publicRoutes.prepare(),
    drain: () => health.drain(),
  });
}

function endRequestSpan(
  span: SpanLike,
  req: ApiRequest,
  response: ApiResponse,
  requestId: string,
  route: string,
): void {
  span.updateName(`${req.method} ${route}`);
  span.setAttribute("http.request.method", req.method);
  span.setAttribute("http.route", route);
  span.setAttribute("http.response.status_code", response.status);
  span.setAttribute("tminus.request_id", requestId);
  if (response.status >= 500) span.setStatus({ code: 2 });
  span.end();
}
