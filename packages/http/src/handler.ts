import { randomBytes } from "node:crypto";
import type { Store } from "@tminus/store";
import { uuidv7 } from "@tminus/store";
import { readRouteBody } from "./api/body";
import { API_PREFIX, type RouteContext, type RouteResult, type Services } from "./api/context";
import type { AnyApiRoute } from "./api/define";
import { createRouter } from "./api/router";
import { apiRoutes } from "./api/routes";
import { limitsFor, resolveConfig, type TminusConfig, type TminusConfigInput } from "./config";
import { createCursorCodec } from "./cursor";
import { type BillingCycle, cycleAt } from "./cycle";
import { createDashboard } from "./dashboard/index";
import { dataEnvelope, JSON_HEADERS, jsonHeaders } from "./envelope";
import { ApiError } from "./errors";
import { type AuthContext, authenticate } from "./guards/auth";
import { createRateLimiter, type RateLimitState, setRateLimitHeaders } from "./guards/rate-limit";
import { createReadCache } from "./guards/read-cache";
import { hasScope } from "./guards/scopes";
import { createUsageMeter } from "./guards/usage-meter";
import { createHousekeeping } from "./housekeeping";
import { createHealth, type HealthOptions } from "./observability/health";
import { instrumentStore } from "./observability/instrument-store";
import type { Logger, RequestLogLine } from "./observability/logger";
import { metricsInternals, type TminusMetrics } from "./observability/metrics";
import { createTracing, type SpanLike } from "./observability/tracing";
import { OPENAPI_PATH, openApiEndpoint } from "./openapi/serve";
import { RenderMissingError } from "./public/render-module";
import { createPublicRoutes } from "./public/routes";
import { isPublicPath, publicRouteTemplate } from "./public/urls";
import { createRequestLog, type RequestLog } from "./request-log";
import { requestBaseUrl } from "./transport/base-url";
import {
  type ApiRequest,
  type ApiResponse,
  BodyTooLargeError,
  IncompleteBodyError,
} from "./transport/exchange";

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
   * (behind a proxy you run). Off by default: anyone can send those headers.
   */
  trustProxy?: boolean;
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
}

export type { RouteContext, Services };
export { API_PREFIX };

/**
 * Whether a path is the handler's: `/api/v1`, the public render routes and the OpenAPI
 * document. Mounted in front of an app, everything else goes to the app.
 */
export function handlesPath(path: string): boolean {
  return (
    path === API_PREFIX ||
    path.startsWith(`${API_PREFIX}/`) ||
    isPublicPath(path) ||
    path === OPENAPI_PATH
  );
}

/** The transport-neutral core: `ApiRequest` in, `ApiResponse` out. Never throws. */
export type Dispatch = ((req: ApiRequest) => Promise<ApiResponse>) & {
  /** Whether the handler answers this path (with its `basePath`); others go to the app. */
  handles(path: string): boolean;
};

/** Builds the dispatcher shared by the Fetch and `node:http` front ends. */
export function createDispatch(
  options: HandlerOptions,
): Dispatch & { close(): Promise<void>; prepare(): Promise<void>; drain(): void } {
  const config =
    options.config && "max_body_bytes" in options.config && "base_url" in options.config
      ? (options.config as TminusConfig)
      : resolveConfig(options.config as TminusConfigInput | undefined);
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
  const router = createRouter<AnyApiRoute>(API_PREFIX, apiRoutes);
  const cache = createReadCache(store);
  const limiter = createRateLimiter(store);
  const usage = createUsageMeter(store, onError);
  const trustProxy = options.trustProxy ?? false;
  const publicRoutes = createPublicRoutes({ store, config, cache, trustProxy, onError });
  const dashboard = createDashboard({
    store,
    config,
    services: () => getServices(),
    renderImage: (kind, input) => publicRoutes.render(kind, input),
    onError,
  });
  const requestLog: RequestLog = createRequestLog(store, onError);
  const housekeeping =
    options.housekeeping === false
      ? null
      : createHousekeeping(store, config, onError, async () => {
          await Promise.all([requestLog.flush(), publicRoutes.flushViews()]);
        });
  const openApi = openApiEndpoint();
  const flushRequestLog = () => requestLog.flush();
  const flushUsage = () => usage.flush();
  const flushViews = () => publicRoutes.flushViews();

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
        flushRequestLog,
        flushUsage,
        flushViews,
      }));
    return services;
  };

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
  });

  let renderMissingReported = false;
  const basePath = normaliseBasePath(options.basePath);
  const ownPath = (path: string) =>
    handlesPath(path) || dashboard.handles(path) || health.handles(path);
  const handles = (path: string) => {
    if (basePath === "") return ownPath(path);
    return (
      (path === basePath || path.startsWith(`${basePath}/`)) &&
      ownPath(path.slice(basePath.length) || "/")
    );
  };

  // The billing cycle of the last request: a month long, so worked out once a month.
  let cycle: BillingCycle = cycleAt(now());

  /** What the request log line and the metrics need to know of a request, filled as it goes. */
  interface Outcome {
    route: string;
    auth: AuthContext | undefined;
  }

  const answer = async (
    incoming: ApiRequest,
    at: number,
    requestId: string,
    started: number,
    outcome: Outcome,
  ): Promise<ApiResponse> => {
    const req = withinBasePath(incoming, basePath);
    if (req === null) {
      return stamp(
        toErrorResponse(
          new ApiError("not_found", `no route for ${incoming.method} ${incoming.path}`),
          requestId,
          onError,
        ),
        requestId,
      );
    }
    // The probes come first: nothing else (no key, no meter, no rate limit) stands before them.
    const probe = health.answer(req.method, req.path, requestId);
    if (probe) {
      outcome.route = req.path;
      return stamp(withoutBodyForHead(req, await probe), requestId);
    }
    const baseUrl = requestBaseUrl(req, { configured: config.base_url, trustProxy });
    // The API description is public (decisions.md): answered before authentication, so it
    // costs no rate-limit unit and leaves no request-log entry.
    if ((req.method === "GET" || req.method === "HEAD") && req.path === OPENAPI_PATH) {
      outcome.route = OPENAPI_PATH;
      let doc: ApiResponse;
      try {
        doc = openApi(baseUrl);
      } catch (error) {
        doc = toErrorResponse(error, requestId, onError);
      }
      return stamp(withoutBodyForHead(req, doc), requestId);
    }
    // Public render routes: no key, not metered, never in the request log.
    if (isPublicPath(req.path)) {
      outcome.route = publicRouteTemplate(req.path);
      let pub: ApiResponse | null;
      try {
        pub = await publicRoutes(req, at, baseUrl);
      } catch (error) {
        if (error instanceof RenderMissingError) {
          // A deployment choice, not a fault: said once, and the API keeps answering.
          if (!renderMissingReported) onError(error, requestId);
          renderMissingReported = true;
          return stamp(withoutBodyForHead(req, renderMissing(error, requestId)), requestId);
        }
        onError(error, requestId);
        pub = {
          status: 500,
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
          body: "The countdown could not be shown right now.",
        };
      }
      if (pub) return stamp(withoutBodyForHead(req, pub), requestId);
    }
    // The dashboard: signed-in people, not keys; not metered and not in the request log.
    if (dashboard.handles(req.path)) {
      outcome.route = dashboardRoute;
      const page = await dashboard.handle(req, at, baseUrl, requestId);
      if (page) return stamp(withoutBodyForHead(req, page), requestId);
    }
    let auth: AuthContext | undefined;
    let rate: RateLimitState | undefined;
    let template = "";
    let response: ApiResponse;
    try {
      if (req.path !== API_PREFIX && !req.path.startsWith(`${API_PREFIX}/`)) {
        throw new ApiError("not_found", `no route for ${req.method} ${req.path}`);
      }
      auth = await authenticate(cache, req.header("authorization"), at);
      outcome.auth = auth;
      const limits = limitsFor(config, auth.account.plan, auth.key.environment);
      rate = await limiter.take(auth, limits, at);
      if (!(at >= cycle.starts_at && at < cycle.resets_at)) cycle = cycleAt(at);
      usage.count(auth.account.id, auth.key.environment, cycle.id);
      const found = router.match(req.method, req.path.slice(API_PREFIX.length) || "/");
      if (!found) throw new ApiError("not_found", `no route for ${req.method} ${req.path}`);
      if ("allowed" in found) {
        throw new ApiError(
          "not_found",
          `no route for ${req.method} ${req.path}; this path accepts ${found.allowed.join(", ")}`,
          { headers: { allow: found.allowed.join(", ") } },
        );
      }
      template = found.template;
      outcome.route = template;
      if (found.route.scope !== null && !hasScope(auth.key.scopes, found.route.scope)) {
        throw new ApiError(
          "forbidden",
          `this key is not scoped for ${req.method} ${found.template}; it needs the "${found.route.scope}" scope`,
        );
      }
      const route = found.route;
      const result = await route.handle({
        req,
        params: found.params,
        auth,
        now: at,
        requestId,
        baseUrl,
        services: await getServices(),
        body: () => {
          if (!route.body) throw new Error(`${route.operationId} declares no body`);
          return readRouteBody(route.body, req, config.max_body_bytes);
        },
      });
      response = toResponse(result, requestId);
    } catch (error) {
      response = toErrorResponse(error, requestId, onError);
      // Refused before routing (no key, rate limited): labelled by the route it asked for.
      if (!template && (metrics || logger)) outcome.route = apiRouteLabel(req);
    }
    stamp(response, requestId);
    if (rate) setRateLimitHeaders(response.headers, rate);
    // A rolled key says on every answer when it stops working, so its holder notices in time.
    if (auth?.key.expires_at != null) {
      response.headers[KEY_EXPIRES_HEADER] = new Date(auth.key.expires_at).toISOString();
    }
    if (auth) {
      // created_at is the instant the request id carries: a lookup by request id relies on it
      // (api/request-log.ts).
      requestLog.add({
        id: uuidv7(at),
        account_id: auth.account.id,
        environment: auth.key.environment,
        key_id: auth.key.id,
        key_prefix: auth.key.prefix,
        request_id: requestId,
        method: req.method,
        route: template || req.path,
        status: response.status,
        error_code: response.status >= 400 ? errorCodeOf(response.body) : null,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        created_at: at,
      });
    }
    housekeeping?.afterResponse(at);
    return response;
  };

  const dashboardRoute = `${dashboard.path}/*`;
  const apiRouteLabel = (req: ApiRequest) => {
    const found = router.match(req.method, req.path.slice(API_PREFIX.length) || "/");
    return found && "template" in found ? found.template : UNMATCHED_ROUTE;
  };

  /** The request's line in the log, its counts in the metrics, and its span. */
  const observe = (
    req: ApiRequest,
    response: ApiResponse,
    requestId: string,
    started: number,
    outcome: Outcome,
  ) => {
    const seconds = (performance.now() - started) / 1000;
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
      logger.info(line, "request");
    }
  };

  const dispatch = async (incoming: ApiRequest): Promise<ApiResponse> => {
    const started = performance.now();
    const at = now();
    const requestId = uuidv7(at);
    const outcome: Outcome = { route: UNMATCHED_ROUTE, auth: undefined };
    const span = tracing?.start("tminus request", "server") ?? null;
    const response = span
      ? await tracing!.within(span, () => answer(incoming, at, requestId, started, outcome))
      : await answer(incoming, at, requestId, started, outcome);
    if (span) endRequestSpan(span, incoming, response, requestId, outcome.route);
    if (metrics || logger) observe(incoming, response, requestId, started, outcome);
    return response;
  };

  const close = async () => {
    health.drain();
    await Promise.all([requestLog.flush(), usage.flush()]);
    await housekeeping?.close();
    await publicRoutes.close();
  };
  return Object.assign(dispatch, {
    close,
    handles,
    prepare: () => publicRoutes.prepare(),
    drain: () => health.drain(),
  });
}

/** The route label of a request no route took (a 404, or a path outside the mount). */
const UNMATCHED_ROUTE = "unmatched";

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

/**
 * `503` when `@tminus/render` is not installed, in the error envelope: the public pages and
 * images cannot be drawn, and the message says how to fix it.
 */
function renderMissing(error: RenderMissingError, requestId: string): ApiResponse {
  return {
    status: 503,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify({
      error: { code: RENDER_UNAVAILABLE, message: error.message },
      request_id: requestId,
    }),
  };
}

/**
 * The error code of the public routes when `@tminus/render` is not installed. Outside
 * `/api/v1`, so not one of the specification's codes.
 */
export const RENDER_UNAVAILABLE = "render_unavailable";

/** Response header of requests made with a rolled key: when the key stops working. */
export const KEY_EXPIRES_HEADER = "tminus-key-expires-at";

/** `/countdown/` -> `/countdown`; none -> "". */
function normaliseBasePath(basePath: string | undefined): string {
  if (!basePath || basePath === "/") return "";
  const trimmed = basePath.replace(/\/+$/, "");
  if (!trimmed.startsWith("/")) throw new Error(`basePath must start with "/", got "${basePath}"`);
  return trimmed;
}

/**
 * The request with `basePath` taken off its path and added to its mount prefix; null when the
 * path is outside `basePath` (not the handler's).
 */
function withinBasePath(req: ApiRequest, basePath: string): ApiRequest | null {
  if (basePath === "") return req;
  if (!(req.path === basePath || req.path.startsWith(`${basePath}/`))) return null;
  // Named one by one: a transport's request may keep its fields behind getters, which a
  // spread would not copy.
  return {
    method: req.method,
    path: req.path.slice(basePath.length) || "/",
    get query() {
      return req.query;
    },
    get origin() {
      return req.origin;
    },
    mountPrefix: req.mountPrefix + basePath,
    get remoteAddress() {
      return req.remoteAddress;
    },
    header: (name) => req.header(name),
    text: (maxBytes) => req.text(maxBytes),
  };
}

/**
 * A HEAD request is answered as its GET would be, without the body: the headers (the
 * Content-Length of the body included) tell a client or a proxy what it would get.
 */
function withoutBodyForHead(req: ApiRequest, response: ApiResponse): ApiResponse {
  if (req.method !== "HEAD") return response;
  response.headers["content-length"] ??= String(
    typeof response.body === "string" ? Buffer.byteLength(response.body) : response.body.byteLength,
  );
  response.body = "";
  return response;
}

/**
 * Headers every response gets, whatever answered it: the request id, and `nosniff` so that no
 * browser reads a JSON error, an image or a script as anything but its declared type.
 */
function stamp(response: ApiResponse, requestId: string): ApiResponse {
  response.headers["x-request-id"] = requestId;
  response.headers["x-content-type-options"] = "nosniff";
  return response;
}

function errorCodeOf(body: string | Uint8Array): string | null {
  if (typeof body !== "string") return null;
  const m = /"code":"([a-z_]+)"/.exec(body);
  return m ? m[1]! : null;
}

function toResponse(result: RouteResult, requestId: string): ApiResponse {
  if ("raw" in result) return { ...result.raw, headers: { ...result.raw.headers } };
  if ("list" in result) {
    return {
      status: result.status ?? 200,
      headers: jsonHeaders(result.headers),
      body: JSON.stringify({ data: result.list, page: result.page, request_id: requestId }),
    };
  }
  return {
    status: result.status ?? 200,
    headers: jsonHeaders(result.headers),
    body: dataEnvelope(result.data, requestId),
  };
}

/** Maps any thrown value to the specification's error envelope; never leaks a stack trace. */
export function toErrorResponse(
  error: unknown,
  requestId: string,
  onError: (error: unknown, requestId: string) => void,
): ApiResponse {
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (error instanceof IncompleteBodyError) {
    apiError = new ApiError("validation_error", error.message, { details: { field: "body" } });
  } else if (error instanceof BodyTooLargeError) {
    apiError = new ApiError(
      "validation_error",
      `request body exceeds the limit of ${error.limit} bytes`,
      {
        details: { field: "body" },
      },
    );
  } else {
    onError(error, requestId);
    apiError = new ApiError("internal_error", "an unexpected error occurred; retry with backoff");
  }
  const body: Record<string, unknown> = { code: apiError.code, message: apiError.message };
  if (apiError.details) body.details = apiError.details;
  return {
    status: apiError.status,
    headers: { ...JSON_HEADERS, ...apiError.headers },
    body: JSON.stringify({ error: body, request_id: requestId }),
  };
}
