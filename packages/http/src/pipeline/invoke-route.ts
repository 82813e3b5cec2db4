import { hasScope } from "@tminus/admin";
import { uuidv7 } from "@tminus/store";
import { readRouteBody } from "../api/body";
import { API_PREFIX, type RouteContext, type RouteResult, type Services } from "../api/context";
import type { AnyApiRoute } from "../api/define";
import { parseRouteInput } from "../api/route-input";
import { createRouter, type RouteMatch } from "../api/router";
import { apiRoutes } from "../api/routes";
import { limitsFor, type TminusConfig } from "../config";
import { type BillingCycle, cycleAt } from "../cycle";
import { ApiError } from "../errors";
import { type AuthContext, authenticate } from "../guards/auth";
import type { RateLimiter, RateLimitState } from "../guards/rate-limit";
import type { ReadCache } from "../guards/read-cache";
import type { UsageMeter } from "../guards/usage-meter";
import type { RequestLog } from "../request-log";
import type { ApiRequest } from "../transport/exchange";
import { clientFaultOf } from "./respond";

// Built once: a template literal in the check would be built again on every request.
const UNDER_API = `${API_PREFIX}/`;

/** One call of an `/api/v1` operation, from the network or from inside the process. */
export interface RouteCall {
  /** The request; its path is the full one (`/api/v1/timers/...`) below the mount prefix. */
  req: ApiRequest;
  now: number;
  requestId: string;
  /** The public base URL absolute URLs are built on. */
  baseUrl: string;
  /**
   * The caller when it is already known (the dashboard's signed-in user, with the role's
   * scopes); otherwise the request's `Authorization` header is authenticated.
   */
  caller?: AuthContext;
  /**
   * Whether the call is API use: rate limited, counted for usage and written to the request
   * log. Default true; in-process calls (the dashboard) pass false.
   */
  metered?: boolean;
  /** `performance.now()` when the request arrived, for the request log's duration. */
  started?: number;
  /** Filled as the call goes, for the caller's headers, metrics and log line. */
  trace?: RouteTrace;
}

/** What a call found out on its way: who called, the rate window, the route's template. */
export interface RouteTrace {
  auth?: AuthContext;
  rate?: RateLimitState;
  template?: string;
}

/**
 * Runs one `/api/v1` operation through every step an API request takes: match,
 * authenticate, scope, rate limit, meter, run, log. Resolves with the route's result; throws
 * the route's `ApiError` (or any fault) as the route threw it.
 */
export type InvokeRoute = (call: RouteCall) => Promise<RouteResult>;

/** What the pipeline works with; one set per handler. */
export interface PipelineParts {
  config: TminusConfig;
  cache: ReadCache;
  limiter: RateLimiter;
  usage: UsageMeter;
  requestLog: RequestLog;
  services(): Promise<Services>;
}

/** The pipeline of one handler, and the template a request would match (for labels). */
export function createRoutePipeline(parts: PipelineParts): {
  invokeRoute: InvokeRoute;
  templateOf(req: ApiRequest): string | null;
} {
  const { config, cache, limiter, usage, requestLog } = parts;
  const router = createRouter<AnyApiRoute>(API_PREFIX, apiRoutes);
  const match = (req: ApiRequest) =>
    router.match(req.method, req.path.slice(API_PREFIX.length) || "/");
  // The billing cycle of the last request: a month long, so worked out once a month.
  let cycle: BillingCycle = cycleAt(Date.now());

  const invokeRoute: InvokeRoute = async (call) => {
    const { req, now: at } = call;
    const trace = call.trace ?? {};
    const metered = call.metered ?? true;
    const started = call.started ?? performance.now();
    try {
      if (req.path !== API_PREFIX && !req.path.startsWith(UNDER_API)) {
        throw new ApiError("not_found", `no route for ${req.method} ${req.path}`);
      }
      const auth = call.caller
        ? activeCaller(call.caller)
        : await authenticate(cache, req.header("authorization"), at);
      trace.auth = auth;
      if (metered) {
        const limits = limitsFor(config, auth.account.plan, auth.key.environment);
        trace.rate = await limiter.take(auth, limits, at);
        if (!(at >= cycle.starts_at && at < cycle.resets_at)) cycle = cycleAt(at);
        usage.count(auth.account.id, auth.key.environment, cycle.id);
      }
      const found = match(req);
      if (!found) throw new ApiError("not_found", `no route for ${req.method} ${req.path}`);
      if ("allowed" in found) {
        throw new ApiError(
          "not_found",
          `no route for ${req.method} ${req.path}; this path accepts ${found.allowed.join(", ")}`,
          { headers: { allow: found.allowed.join(", ") } },
        );
      }
      trace.template = found.template;
      if (found.route.scope !== null && !hasScope(auth.key.scopes, found.route.scope)) {
        throw new ApiError(
          "forbidden",
          `this key is not scoped for ${req.method} ${found.template}; it needs the "${found.route.scope}" scope`,
        );
      }
      const result = await found.route.handle(
        routeContext(found, call, auth, await parts.services()),
      );
      if (metered) log(call, trace, started, statusOf(result), rawErrorCode(result));
      return result;
    } catch (error) {
      if (metered && trace.auth) {
        const fault = clientFaultOf(error);
        log(call, trace, started, fault?.status ?? 500, fault?.code ?? "internal_error");
      }
      throw error;
    }
  };

  /**
   * The context a matched route runs with. The one place it is built, for calls from the
   * network and from inside the process alike.
   */
  function routeContext(
    found: RouteMatch<AnyApiRoute>,
    call: RouteCall,
    auth: AuthContext,
    services: Services,
  ): RouteContext {
    const route = found.route;
    return {
      req: call.req,
      ...parseRouteInput(route, found.params, call.req.query),
      auth,
      now: call.now,
      requestId: call.requestId,
      baseUrl: call.baseUrl,
      services,
      body: () => {
        if (!route.body) throw new Error(`${route.operationId} declares no body`);
        const limit = route.body.maxBytes?.(config) ?? config.max_body_bytes;
        return readRouteBody(route.body, call.req, limit);
      },
    };
  }

  /** The request-log row of a metered call. */
  function log(
    call: RouteCall,
    trace: RouteTrace,
    started: number,
    status: number,
    code: string | null,
  ) {
    const auth = trace.auth!;
    // created_at is the instant the request id carries: a lookup by request id relies on it
    // (api/request-log.ts).
    requestLog.add({
      id: uuidv7(call.now),
      account_id: auth.account.id,
      environment: auth.key.environment,
      key_id: auth.key.id,
      key_prefix: auth.key.prefix,
      request_id: call.requestId,
      method: call.req.method,
      route: trace.template || call.req.path,
      status,
      error_code: status >= 400 ? code : null,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      created_at: call.now,
    });
  }

  const templateOf = (req: ApiRequest) => {
    const found = match(req);
    return found && "template" in found ? found.template : null;
  };
  return { invokeRoute, templateOf };
}

/** A caller known in advance still needs an active account, as a key's would. */
function activeCaller(auth: AuthContext): AuthContext {
  if (auth.account.status !== "active") {
    throw new ApiError(
      "suspended",
      "the account is suspended; nothing can be changed until it is reactivated",
    );
  }
  return auth;
}

/** The error code of a stored answer replayed as it was (an idempotent retry). */
function rawErrorCode(result: RouteResult): string | null {
  if (!("raw" in result)) return null;
  const m = /"code":"([a-z_]+)"/.exec(result.raw.body);
  return m ? m[1]! : null;
}

function statusOf(result: RouteResult): number {
  return "raw" in result ? result.raw.status : (result.status ?? 200);
}
