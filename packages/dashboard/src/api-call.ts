import { randomUUID } from "node:crypto";
import type { ApiRequest, AuthContext, InvokeRoute } from "@tminus/http";
import { API_PREFIX, ApiError, type RouteResult } from "@tminus/http";
import type { Account, ApiKeyRecord, DashboardUser, Environment } from "@tminus/store";

/** The scopes of each dashboard role: members work with timers and usage, owners with all. */
export const ROLE_SCOPES: Record<DashboardUser["role"], string[]> = {
  owner: ["*"],
  member: [
    "timers:read",
    "timers:write",
    "usage:read",
    "request_log:read",
    "assets:read",
    "assets:write",
  ],
};

/**
 * The caller the API's routes see for a dashboard user: the account, the environment chosen in
 * the dashboard and the role's scopes. Its id is the user's, its prefix `dashboard`, so the
 * activity log tells dashboard changes from API ones.
 */
export function dashboardAuth(
  user: DashboardUser,
  account: Account,
  environment: Environment,
): AuthContext {
  const key: ApiKeyRecord = {
    id: user.id,
    account_id: account.id,
    environment,
    prefix: "dashboard",
    hash: "",
    scopes: ROLE_SCOPES[user.role],
    name: null,
    created_at: user.created_at,
    revoked_at: null,
    expires_at: null,
  };
  return { key, account };
}

/** One call of an /api/v1 operation from the dashboard. */
export interface ApiCall {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Path under /api/v1, e.g. `/timers/0190.../publish`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What the dashboard needs of a request to call a route as the signed-in user. */
export interface CallerContext {
  req: ApiRequest;
  auth: AuthContext;
  now: number;
  baseUrl: string;
}

/**
 * Calls /api/v1 operations in process, through the API's own pipeline (route table, scope
 * check, handlers) as the signed-in user: the rules (validation, allowance, revisions, states)
 * live in one place. Not metered, not rate-limited and not in the request log: those count
 * API use.
 */
export function createApiCaller(invokeRoute: InvokeRoute) {
  return async function callRoute(ctx: CallerContext, call: ApiCall): Promise<RouteResult> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(call.query ?? {}))
      if (v !== undefined && v !== "") query.set(k, v);
    const headers: Record<string, string> = { "content-type": "application/json" };
    for (const [k, v] of Object.entries(call.headers ?? {})) headers[k.toLowerCase()] = v;
    const body = call.body === undefined ? "" : JSON.stringify(call.body);
    const req: ApiRequest = {
      method: call.method,
      path: API_PREFIX + call.path,
      query,
      header: (name) => headers[name] ?? null,
      text: async () => body,
      origin: ctx.req.origin,
      mountPrefix: ctx.req.mountPrefix,
    };
    try {
      return await invokeRoute({
        req,
        now: ctx.now,
        requestId: randomUUID(),
        baseUrl: ctx.baseUrl,
        caller: ctx.auth,
        metered: false,
      });
    } catch (error) {
      // The API tells a developer which scope the key lacks; a person is told whom to ask.
      if (error instanceof ApiError && error.code === "forbidden") {
        throw new ApiError(
          "forbidden",
          "your role does not allow this; ask an owner of the account",
        );
      }
      throw error;
    }
  };
}

/** The route's `data` (single object), whichever form the route answered in. */
export function dataOf<T = Record<string, unknown>>(result: RouteResult): T {
  if ("data" in result) return result.data as T;
  if ("raw" in result) return (JSON.parse(result.raw.body) as { data: T }).data;
  throw new Error("expected a single object, got a list");
}

/** The route's list and whether there is more. */
export function listOf<T = Record<string, unknown>>(
  result: RouteResult,
): { items: T[]; next: string | null } {
  if (!("list" in result)) throw new Error("expected a list");
  return { items: result.list as T[], next: result.page.next_cursor };
}
