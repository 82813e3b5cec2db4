// The rate limiter on a real SQLite store, without a server: fixed one-minute windows per key
// and per account+environment, the tighter one answering in the RateLimit-* headers.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PlanLimits } from "../../src/config";
import { ApiError } from "../../src/errors";
import {
  createRateLimiter,
  rateLimitHeaders,
  setRateLimitHeaders,
} from "../../src/guards/rate-limit";
import { type UnitStore, unitStore } from "./_store";

const limits = (requests_per_minute: number): PlanLimits => ({
  requests_per_minute,
  new_timers_per_cycle: 10,
  max_keys: 3,
});
const WINDOW = Date.UTC(2026, 10, 23, 12, 0); // a window start: whole minutes
const reset = (WINDOW + 60_000) / 1000;

let u: UnitStore;
beforeEach(() => {
  u = unitStore();
});
afterEach(() => u.close());

async function refused(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("rate limits", () => {
  it("counts one key down to zero exactly, then refuses with Retry-After and the headers", async () => {
    const limiter = createRateLimiter(u.store);
    const { auth } = await u.key("acme");
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) {
      const state = await limiter.take(auth, limits(10), WINDOW + i * 1000);
      expect(state.limit).toBe(10);
      expect(state.reset).toBe(reset);
      seen.push(state.remaining);
    }
    expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const error = await refused(limiter.take(auth, limits(10), WINDOW + 45_500));
    expect(error.code).toBe("rate_limited");
    expect(error.message).toBe(
      "rate limit of 10 requests per minute exceeded; retry in 15 seconds",
    );
    expect(error.headers).toEqual({
      "retry-after": "15",
      "ratelimit-limit": "10",
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(reset),
    });
  });

  it("answers with the account's window when it is tighter than the key's (two keys)", async () => {
    const limiter = createRateLimiter(u.store);
    const a = await u.key("acme");
    const b = await u.key("acme");
    for (let i = 0; i < 6; i++) await limiter.take(a.auth, limits(10), WINDOW);
    // Key b has used nothing (its own window: 9 left), the account 7 of 10: 3 left.
    const state = await limiter.take(b.auth, limits(10), WINDOW);
    expect(rateLimitHeaders(state)).toEqual({
      "ratelimit-limit": "10",
      "ratelimit-remaining": "3",
      "ratelimit-reset": String(reset),
    });
    expect((await limiter.take(b.auth, limits(10), WINDOW)).remaining).toBe(2);
    expect((await limiter.take(a.auth, limits(10), WINDOW)).remaining).toBe(1);
    expect((await limiter.take(b.auth, limits(10), WINDOW)).remaining).toBe(0);
    // The account's window is full for both keys, though neither key's own window is.
    expect((await refused(limiter.take(a.auth, limits(10), WINDOW))).code).toBe("rate_limited");
    expect((await refused(limiter.take(b.auth, limits(10), WINDOW))).code).toBe("rate_limited");
  });

  it("sets the window's headers on an answer; one refusing with Retry-After keeps its Remaining", () => {
    const state = { limit: 10, remaining: 4, reset };
    const ok: Record<string, string> = { "content-type": "application/json" };
    setRateLimitHeaders(ok, state);
    expect(ok).toEqual({
      "content-type": "application/json",
      "ratelimit-limit": "10",
      "ratelimit-remaining": "4",
      "ratelimit-reset": String(reset),
    });
    const own: Record<string, string> = { "retry-after": "30", "ratelimit-remaining": "2" };
    setRateLimitHeaders(own, state);
    expect(own["ratelimit-remaining"]).toBe("2");
    const unset: Record<string, string> = { "retry-after": "30" };
    setRateLimitHeaders(unset, state);
    expect(unset).toEqual({
      "retry-after": "30",
      "ratelimit-limit": "10",
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(reset),
    });
  });

  it("keeps accounts and environments apart", async () => {
    const limiter = createRateLimiter(u.store);
    const live = await u.key("acme", "production");
    const test = await u.key("acme", "sandbox");
    const other = await u.key("globex", "production");
    for (let i = 0; i < 5; i++) await limiter.take(live.auth, limits(5), WINDOW);
    expect((await limiter.take(test.auth, limits(5), WINDOW)).remaining).toBe(4);
    expect((await limiter.take(other.auth, limits(5), WINDOW)).remaining).toBe(4);
  });

  it("starts a new window on the minute, and a refused request takes nothing", async () => {
    const limiter = createRateLimiter(u.store);
    const a = await u.key("acme");
    const b = await u.key("acme");
    for (let i = 0; i < 3; i++) await limiter.take(a.auth, limits(3), WINDOW + 59_000);
    await refused(limiter.take(a.auth, limits(3), WINDOW + 59_999));
    // Retry-After is never 0: 1 ms before the end is still "retry in 1 second".
    const late = await refused(limiter.take(b.auth, limits(3), WINDOW + 59_999));
    expect(late.headers?.["retry-after"]).toBe("1");
    const next = await limiter.take(a.auth, limits(3), WINDOW + 60_000);
    expect(next).toEqual({ limit: 3, remaining: 2, reset: reset + 60 });
    limiter.prune(WINDOW + 60_000);
    expect((await limiter.take(b.auth, limits(3), WINDOW + 61_000)).remaining).toBe(1);
  });

  it("a full window at its first second asks to retry in 60 seconds", async () => {
    const limiter = createRateLimiter(u.store);
    const { auth } = await u.key("acme");
    await limiter.take(auth, limits(1), WINDOW);
    const error = await refused(limiter.take(auth, limits(1), WINDOW));
    expect(error.headers?.["retry-after"]).toBe("60");
  });

  it("two processes on one store never admit more than the limit together", async () => {
    const p1 = createRateLimiter(u.store);
    const p2 = createRateLimiter(u.store);
    const { auth } = await u.key("acme");
    let admitted = 0;
    const attempt = (p: typeof p1) =>
      p.take(auth, limits(50), WINDOW).then(
        () => admitted++,
        (e: ApiError) => expect(e.code).toBe("rate_limited"),
      );
    await Promise.all(Array.from({ length: 80 }, (_, i) => attempt(i % 2 ? p1 : p2)));
    expect(admitted).toBeLessThanOrEqual(50);
    // Units one process reserved and did not use are lost, but not many: chunks shrink.
    expect(admitted).toBeGreaterThanOrEqual(40);
  });

  it("a process's first request in a window reserves one unit, so light traffic is counted exactly", async () => {
    const p1 = createRateLimiter(u.store);
    const p2 = createRateLimiter(u.store);
    const { auth } = await u.key("acme");
    expect((await p1.take(auth, limits(300), WINDOW)).remaining).toBe(299);
    expect((await p2.take(auth, limits(300), WINDOW)).remaining).toBe(298);
  });

  it("concurrent requests wait for the one reservation under way instead of each asking", async () => {
    let writes = 0;
    const counting = new Proxy(u.store, {
      get(target, name, receiver) {
        if (name === "reserveRequests") {
          return (input: Parameters<typeof target.reserveRequests>[0]) => {
            writes++;
            return target.reserveRequests(input);
          };
        }
        return Reflect.get(target, name, receiver);
      },
    });
    const limiter = createRateLimiter(counting);
    const { auth } = await u.key("acme");
    const states = await Promise.all(
      Array.from({ length: 40 }, () => limiter.take(auth, limits(1000), WINDOW)),
    );
    expect(states.map((s) => s.remaining).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 40 }, (_, i) => 999 - i),
    );
    // One unit first, then one chunk of 124: two reservations for forty requests.
    expect(writes).toBe(2);
  });

  it("a store failure reaches the request, and the next request asks again", async () => {
    const limiter = createRateLimiter(u.store);
    const { auth } = await u.key("acme");
    await u.store.close();
    await expect(limiter.take(auth, limits(10), WINDOW)).rejects.toThrow();
    await expect(limiter.take(auth, limits(10), WINDOW)).rejects.toThrow();
    u = unitStore(); // afterEach closes it
  });

  it("takes large budgets in chunks: one process admits a full window with few store writes", async () => {
    let writes = 0;
    const counting = new Proxy(u.store, {
      get(target, name, receiver) {
        if (name === "reserveRequests") {
          return (input: Parameters<typeof target.reserveRequests>[0]) => {
            writes++;
            return target.reserveRequests(input);
          };
        }
        return Reflect.get(target, name, receiver);
      },
    });
    const limiter = createRateLimiter(counting);
    const { auth } = await u.key("acme");
    for (let i = 0; i < 300; i++) {
      expect((await limiter.take(auth, limits(300), WINDOW)).remaining).toBe(299 - i);
    }
    await refused(limiter.take(auth, limits(300), WINDOW));
    // One unit first, then an eighth of what is left each time, down to one unit at a time.
    // (41 writes for 300 units; one unit per write would be 301.)
    expect(writes).toBeGreaterThan(30);
    expect(writes).toBeLessThan(50);
  });
});
