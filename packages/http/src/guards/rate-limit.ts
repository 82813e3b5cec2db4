import type { RateReservation, Store } from "@tminus/store";
import type { PlanLimits } from "../config";
import { ApiError } from "../errors";
import type { AuthContext } from "./auth";

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
  /**
   * Forgets windows that have ended (called now and then; the state is small). Units still held
   * for them are dropped: a late request for one (a clock stepped back) asks the store again.
   */
  prune(now: number): void;
  /** Buckets held now (two per key seen in the current window: the key's and the account's). */
  readonly size: number;
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
  // The newest window seen: the first request of a new window drops the ended ones, so the
  // map holds the keys active in about one minute, not every key ever seen.
  let newest = 0;
  // The bucket names of a key, made once per key record: the read cache hands out the same
  // record while nothing changes, and a name string kept is a map key whose hash is kept.
  const names = new WeakMap<AuthContext["key"], readonly [string, string]>();

  const nameKey = (auth: AuthContext): readonly [string, string] => {
    const pair = [
      `key:${auth.key.id}`,
      `account:${auth.account.id}:${auth.key.environment}`,
    ] as const;
    names.set(auth.key, pair);
    return pair;
  };
  const namesOf = (auth: AuthContext) => names.get(auth.key) ?? nameKey(auth);

  const freshBucket = (window: number): Bucket => ({
    window,
    budget: 0,
    count: 0,
    full: false,
    pending: null,
  });

  // A request keeps the buckets it started with until it is answered, so a newer window taking
  // their place in the map (or pruning) cannot make it drop the units it reserved and ask again.
  const bucketOf = (name: string, window: number): Bucket => {
    const held = buckets.get(name);
    // A late request (its clock still in the window before) gets a bucket of its own and
    // leaves the newer window's in place: swapping them back and forth lost both windows' units.
    if (held && held.window >= window) return held.window === window ? held : freshBucket(window);
    const bucket = freshBucket(window);
    buckets.set(name, bucket);
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

  const prune = (now: number): void => {
    const window = now - (now % WINDOW_MS);
    for (const [name, b] of buckets) if (b.window < window) buckets.delete(name);
  };

  return {
    async take(auth, limits, now) {
      const window = now - (now % WINDOW_MS);
      if (window > newest) {
        newest = window;
        prune(now);
      }
      const windowEnd = window + WINDOW_MS;
      const limit = limits.requests_per_minute;
      const [keyName, accountName] = namesOf(auth);
      const key = bucketOf(keyName, window);
      const account = bucketOf(accountName, window);
      for (;;) {
        if (key.budget > 0 && account.budget > 0) {
          key.budget--;
          account.budget--;
          // Used so far = the store's count less what this process still holds. Either window
          // may be the tighter as this process knows them: each count is as fresh as its
          // bucket's last reservation.
          const remaining = Math.min(
            limit - (key.count - key.budget),
            limit - (account.count - account.budget),
          );
          return { limit, remaining: Math.max(0, remaining), reset: Math.ceil(windowEnd / 1000) };
        }
        // A full window has no units left (it is asked only when it holds none), for any process.
        // The key's fills on its own when other processes hold its units unused.
        if (key.full || account.full) {
          const wait = Math.max(1, Math.ceil((windowEnd - now) / 1000));
          const state = { limit, remaining: 0, reset: Math.ceil(windowEnd / 1000) };
          throw new ApiError(
            "rate_limited",
            `rate limit of ${limit} requests per minute exceeded; retry in ${wait} seconds`,
            { headers: { "retry-after": String(wait), ...rateLimitHeaders(state) } },
          );
        }
        // Only the windows this process holds no units of are asked for more.
        const pair: [string, Bucket][] = [
          [keyName, key],
          [accountName, account],
        ];
        const empty = pair.filter(([, b]) => b.budget === 0);
        const idle = empty.filter(([, b]) => b.pending === null);
        if (idle.length > 0) reserve(window, limit, idle);
        await Promise.all(empty.map(([, b]) => b.pending));
      }
    },
    prune,
    get size() {
      return buckets.size;
    },
  };
}
