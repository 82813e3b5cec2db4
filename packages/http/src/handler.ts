import { randomBytes } from "node:crypto";
import type { Store } from "@tminus/store";
import { type AuthContext, authenticate } from "./auth";
import { limitsFor, resolveConfig, type TminusConfig, type TminusConfigInput } from "./config";
import { type CursorCodec, createCursorCodec } from "./cursor";
import { cycleAt } from "./cycle";
import { dataEnvelope, JSON_HEADERS } from "./envelope";
import { ApiError } from "./errors";
import { type ApiRequest, type ApiResponse, BodyTooLargeError } from "./exchange";
import { createHousekeeping } from "./housekeeping";
import { uuidv7 } from "./ids";
import { OPENAPI_PATH, openApiEndpoint } from "./openapi/serve";
import { createPublicRoutes } from "./public/routes";
import { isPublicPath } from "./public/urls";
import { applyRateLimit, type RateLimitState, rateLimitHeaders } from "./rate-limit";
import { createRequestLog, type RequestLog } from "./request-log";
import { createRouter, type RouteResult } from "./router";
import { apiRoutes } from "./routes";
import { hasScope } from "./scopes";

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
}

/** Everything a route needs besides the request. */
export interface Services {
  store: Store;
  config: TminusConfig;
  cursors: CursorCodec;
  /** Resolves once every request answered before the call is in the request log. */
  flushRequestLog(): Promise<void>;
}

/** The context a route handler receives. */
export interface RouteContext {
  req: ApiRequest;
  params: Record<string, string>;
  auth: AuthContext;
  now: number;
  requestId: string;
  services: Services;
}

export const API_PREFIX = "/api/v1";

/** The transport-neutral core: `ApiRequest` in, `ApiResponse` out. Never throws. */
export type Dispatch = (req: ApiRequest) => Promise<ApiResponse>;

/** Builds the dispatcher shared by the Fetch and `node:http` front ends. */
export function createDispatch(options: HandlerOptions): Dispatch & { close(): Promise<void> } {
  const config =
    options.config && "max_body_bytes" in options.config && "base_url" in options.config
      ? (options.config as TminusConfig)
      : resolveConfig(options.config as TminusConfigInput | undefined);
  const store = options.store;
  const now = options.now ?? Date.now;
  const onError =
    options.onError ??
    ((error: unknown, requestId: string) =>
      console.error(`[tminus] internal error (request ${requestId})`, error));
  const router = createRouter<RouteContext>(API_PREFIX, apiRoutes);
  const publicRoutes = createPublicRoutes({ store, config });
  const requestLog: RequestLog = createRequestLog(store, onError);
  const housekeeping = createHousekeeping(store, config, onError);
  const openApi = openApiEndpoint(config.base_url);
  const flushRequestLog = () => requestLog.flush();

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
        flushRequestLog,
      }));
    return services;
  };

  const dispatch = async (req: ApiRequest): Promise<ApiResponse> => {
    const started = performance.now();
    const at = now();
    const requestId = uuidv7(at);
    // The API description is public (decisions.md): answered before authentication, so it
    // costs no rate-limit unit and leaves no request-log entry.
    if (req.method === "GET" && req.path === OPENAPI_PATH) {
      let doc: ApiResponse;
      try {
        doc = openApi();
      } catch (error) {
        doc = toErrorResponse(error, requestId, onError);
      }
      doc.headers["x-request-id"] = requestId;
      return doc;
    }
    // Public render routes: no key, not metered, never in the request log.
    if (isPublicPath(req.path)) {
      let pub: ApiResponse | null;
      try {
        pub = await publicRoutes(req, at);
      } catch (error) {
        onError(error, requestId);
        pub = {
          status: 500,
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
          body: "The countdown could not be shown right now.",
        };
      }
      if (pub) {
        pub.headers["x-request-id"] = requestId;
        return pub;
      }
    }
    let auth: AuthContext | undefined;
    let rate: RateLimitState | undefined;
    let template = "";
    let response: ApiResponse;
    try {
      if (req.path !== API_PREFIX && !req.path.startsWith(`${API_PREFIX}/`)) {
        throw new ApiError("not_found", `no route for ${req.method} ${req.path}`);
      }
      auth = await authenticate(store, req.header("authorization"));
      const limits = limitsFor(config, auth.account.plan, auth.key.environment);
      rate = await applyRateLimit(store, auth, limits, cycleAt(at).id, at);
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
      if (!hasScope(auth.key.scopes, found.route.scope)) {
        throw new ApiError(
          "forbidden",
          `this key is not scoped for ${req.method} ${found.template}; it needs the "${found.route.scope}" scope`,
        );
      }
      const result = await found.route.handle({
        req,
        params: found.params,
        auth,
        now: at,
        requestId,
        services: await getServices(),
      });
      response = toResponse(result, requestId);
    } catch (error) {
      response = toErrorResponse(error, requestId, onError);
    }
    response.headers["x-request-id"] = requestId;
    if (rate) Object.assign(response.headers, rateLimitHeaders(rate), pickRetry(response));
    if (auth) {
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
    housekeeping.afterResponse(at);
    return response;
  };

  const close = async () => {
    await requestLog.flush();
    await housekeeping.close();
  };
  return Object.assign(dispatch, { close });
}

// A rate-limited response carries its own RateLimit-* values (remaining 0); keep them.
function pickRetry(response: ApiResponse): Record<string, string> {
  const out: Record<string, string> = {};
  if (response.headers["retry-after"]) {
    out["ratelimit-remaining"] = response.headers["ratelimit-remaining"] ?? "0";
  }
  return out;
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
      headers: { ...JSON_HEADERS, ...result.headers },
      body: JSON.stringify({ data: result.list, page: result.page, request_id: requestId }),
    };
  }
  return {
    status: result.status ?? 200,
    headers: { ...JSON_HEADERS, ...result.headers },
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
  else if (error instanceof BodyTooLargeError) {
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
