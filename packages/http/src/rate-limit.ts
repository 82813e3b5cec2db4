import type { Store } from "@tminus/store";
import type { AuthContext } from "./auth";
import type { PlanLimits } from "./config";
import { ApiError } from "./errors";

const WINDOW_MS = 60_000;

/** The window that applies to a request, for the RateLimit-* headers. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
}

/** RateLimit-* headers of the specification (Reset is a Unix time, not seconds-until). */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "ratelimit-limit": String(state.limit),
    "ratelimit-remaining": String(state.remaining),
    "ratelimit-reset": String(state.reset),
  };
}

/**
 * Counts the request in the fixed one-minute window, per key and per account (and
 * environment), in one atomic store operation; the tighter bucket answers. Over the limit:
 * `429 rate_limited` with Retry-After (whole seconds to the window's end, at least 1).
 */
export async function applyRateLimit(
  store: Store,
  auth: AuthContext,
  limits: PlanLimits,
  cycleId: string,
  now: number,
): Promise<RateLimitState> {
  const windowStart = now - (now % WINDOW_MS);
  const windowEnd = windowStart + WINDOW_MS;
  const keyBucket = `key:${auth.key.id}`;
  const accountBucket = `account:${auth.account.id}:${auth.key.environment}`;
  const limit = limits.requests_per_minute;
  const result = await store.countRequest({
    buckets: [
      { bucket: keyBucket, limit },
      { bucket: accountBucket, limit },
    ],
    window_start: windowStart,
    usage: { account_id: auth.account.id, environment: auth.key.environment, cycle_id: cycleId },
  });
  const used = Math.max(result.counts[keyBucket] ?? 0, result.counts[accountBucket] ?? 0);
  const state: RateLimitState = {
    limit,
    remaining: Math.max(0, limit - used),
    reset: Math.ceil(windowEnd / 1000),
  };
  if (!result.allowed) {
    const wait = Math.max(1, Math.ceil((windowEnd - now) / 1000));
    throw new ApiError(
      "rate_limited",
      `rate limit of ${limit} requests per minute exceeded; retry in ${wait} seconds`,
      { headers: { "retry-after": String(wait), ...rateLimitHeaders({ ...state, remaining: 0 }) } },
    );
  }
  return state;
}
